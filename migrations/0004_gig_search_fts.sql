-- Text search of gigs (GET /api/gigs?q=, docs/decisions/008-search-and-budget-bands.md): an FTS5 index
-- with the trigram tokenizer (case-insensitive substrings of 3+ characters) over title, description and
-- category. It is an external-content index over gigs: it stores only the index, the text stays in gigs.
-- Its rowid is gigs.search_seq, an integer in creation order (a TEXT-keyed table's own rowid can change on
-- VACUUM), so a search page comes out of the index newest first and LIMIT stops it early.

-- Existing gigs get their sequence in (created_at, id) order; new gigs get MAX + 1 from the trigger below.
UPDATE gigs SET search_seq = numbered.n
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM gigs) AS numbered
  WHERE numbered.id = gigs.id AND gigs.search_seq IS NULL;
--> statement-breakpoint
CREATE VIRTUAL TABLE gigs_search USING fts5(
  title, description, category,
  content = 'gigs', content_rowid = 'search_seq',
  tokenize = 'trigram'
);
--> statement-breakpoint
INSERT INTO gigs_search (gigs_search) VALUES ('rebuild');
--> statement-breakpoint
-- A new gig: number it; numbering it indexes it (the trigger after).
CREATE TRIGGER gigs_search_seq_on_insert AFTER INSERT ON gigs WHEN NEW.search_seq IS NULL BEGIN
  UPDATE gigs SET search_seq = (SELECT COALESCE(MAX(search_seq), 0) + 1 FROM gigs) WHERE id = NEW.id;
END;
--> statement-breakpoint
-- Numbered, or its text edited: take the old text out of the index (external content needs the old
-- values), put the new in. Status and other columns are not in the index, so their changes cost nothing here.
CREATE TRIGGER gigs_search_on_update AFTER UPDATE OF search_seq, title, description, category ON gigs BEGIN
  INSERT INTO gigs_search (gigs_search, rowid, title, description, category)
    SELECT 'delete', OLD.search_seq, OLD.title, OLD.description, OLD.category WHERE OLD.search_seq IS NOT NULL;
  INSERT INTO gigs_search (rowid, title, description, category)
    SELECT NEW.search_seq, NEW.title, NEW.description, NEW.category WHERE NEW.search_seq IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER gigs_search_on_delete AFTER DELETE ON gigs WHEN OLD.search_seq IS NOT NULL BEGIN
  INSERT INTO gigs_search (gigs_search, rowid, title, description, category)
    VALUES ('delete', OLD.search_seq, OLD.title, OLD.description, OLD.category);
END;
