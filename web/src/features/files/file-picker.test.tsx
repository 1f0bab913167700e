import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_SUBMISSION, type AttachmentRef } from "../../../../domain/files";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { AttachmentList } from "./attachment-list";
import { FilePicker } from "./file-picker";

function fileOf(name: string, bytes: number, type = "text/plain"): File {
  const file = new File(["x"], name, { type });
  Object.defineProperty(file, "size", { value: bytes }); // no need to hold 50 MB in memory
  return file;
}

function renderPicker() {
  const changes: AttachmentRef[][] = [];
  function Harness() {
    const [files, setFiles] = useState<AttachmentRef[]>([]);
    return (
      <FilePicker
        value={files}
        onChange={(next) => {
          changes.push(next);
          setFiles(next);
        }}
      />
    );
  }
  renderWithApp(<Harness />, { user: makeUser() });
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  return { changes, input, user: userEvent.setup({ applyAccept: false }) };
}

let uploads = 0;
const uploadRoutes = () => ({
  "POST /api/objects/upload": () => {
    uploads += 1;
    return { uploadURL: `/api/objects/upload/token-${uploads}`, objectPath: `/objects/uploads/id-${uploads}`, expiresAt: "2026-11-01T00:15:00.000Z" };
  },
  "PUT /api/objects/upload/token-1": () => ({ success: true }),
  "PUT /api/objects/upload/token-2": () => ({ success: true }),
  "PUT /api/objects/upload/token-3": () => ({ success: true }),
});

describe("FilePicker", () => {
  it("takes at most 20 files for a submission: uploads the first 20, says the rest were left out, and takes no more", async () => {
    uploads = 0;
    const puts = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`PUT /api/objects/upload/token-${i + 1}`, () => ({ success: true })]));
    const api = mockApi({ ...uploadRoutes(), ...puts });
    const { input, user, changes } = renderPicker();
    expect(screen.getByText("Several files allowed (up to 20), 50MB each at most.")).toBeInTheDocument();
    await user.upload(input, Array.from({ length: MAX_ATTACHMENTS_PER_SUBMISSION + 1 }, (_, i) => fileOf(`page-${i + 1}.txt`, 10)));
    expect(await findToast("20 files uploaded successfully. At most 20 files per submission: 1 not added.")).toBeInTheDocument();
    await waitFor(() => expect(changes.at(-1)).toHaveLength(MAX_ATTACHMENTS_PER_SUBMISSION));
    expect(api.callsTo("POST", "/api/objects/upload")).toHaveLength(MAX_ATTACHMENTS_PER_SUBMISSION);
    expect(screen.getByRole("button", { name: "Attach files (optional)" })).toBeDisabled();
  });

  it("refuses a file over 50MB with 'File too large' and uploads nothing", async () => {
    const api = mockApi(uploadRoutes());
    const { input, user, changes } = renderPicker();
    await user.upload(input, fileOf("huge-video.mp4", MAX_ATTACHMENT_BYTES + 1, "video/mp4"));
    expect(await findToast("File too large")).toBeInTheDocument();
    expect(await findToast("huge-video.mp4 exceeds 50MB limit")).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
    expect(changes).toEqual([]);
  });

  it("uploads several files (POST then PUT with the content type), skipping an oversized one, and lists them in KB", async () => {
    uploads = 0;
    const api = mockApi(uploadRoutes());
    const { input, user, changes } = renderPicker();
    await user.upload(input, [fileOf("logo.svg", 2048, "image/svg+xml"), fileOf("big.iso", MAX_ATTACHMENT_BYTES + 1), fileOf("notes.txt", MAX_ATTACHMENT_BYTES)]);
    expect(await findToast("Files Uploaded")).toBeInTheDocument();

    expect(api.callsTo("POST", "/api/objects/upload").map((c) => c.body)).toEqual([
      { filename: "logo.svg", contentType: "image/svg+xml", size: 2048 },
      { filename: "notes.txt", contentType: "text/plain", size: MAX_ATTACHMENT_BYTES },
    ]);
    const put = api.callsTo("PUT", "/api/objects/upload/token-1")[0]!;
    expect(put.headers).toMatchObject({ "Content-Type": "image/svg+xml" });
    expect(changes.at(-1)).toEqual([
      { url: "/objects/uploads/id-1", filename: "logo.svg", fileSize: 2048, mimeType: "image/svg+xml" },
      { url: "/objects/uploads/id-2", filename: "notes.txt", fileSize: MAX_ATTACHMENT_BYTES, mimeType: "text/plain" },
    ]);
    expect(screen.getByText("2.0 KB")).toBeInTheDocument();
    expect(screen.getByText("51200.0 KB")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Remove logo.svg" }));
    expect(changes.at(-1)).toEqual([expect.objectContaining({ filename: "notes.txt" })]);
  });

  it("says so when an upload fails", async () => {
    mockApi({ "POST /api/objects/upload": () => apiError(401, "Authentication required", "unauthorized") });
    const { input, user, changes } = renderPicker();
    await user.upload(input, fileOf("a.txt", 10));
    expect(await findToast("Upload Failed")).toBeInTheDocument();
    expect(changes).toEqual([]);
  });
});

describe("AttachmentList", () => {
  const files = [
    { id: "a1", url: "/api/attachments/a1/download", filename: "logo.svg", fileSize: 1536, mimeType: "image/svg+xml" },
    { id: "a2", url: "/api/attachments/a2/download", filename: "notes.txt", fileSize: 100, mimeType: "text/plain" },
  ];

  it("lists the files with sizes in KB and downloads with the session token", async () => {
    const api = mockApi({ "GET /api/attachments/a1/download": () => new Response("<svg/>", { status: 200 }) });
    // jsdom has no object URLs; give it stand-ins to spy on.
    URL.createObjectURL ??= () => "";
    URL.revokeObjectURL ??= () => undefined;
    const createObjectURL = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:file");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    renderWithApp(<AttachmentList attachments={files} />, { user: makeUser() });
    expect(screen.getByText("1.5 KB")).toBeInTheDocument();
    expect(screen.getByText("0.1 KB")).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole("button", { name: "Download logo.svg" }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(api.callsTo("GET", "/api/attachments/a1/download")[0]!.headers).toMatchObject({ Authorization: "Bearer test-session-token" });
    expect(createObjectURL).toHaveBeenCalled();
  });

  it("shows 'Download Failed' with the server's words, or the status", async () => {
    mockApi({
      "GET /api/attachments/a1/download": () => apiError(403, "Only the gig's hirer and worker can see this", "forbidden"),
      "GET /api/attachments/a2/download": () => new Response("", { status: 502 }),
    });
    renderWithApp(<AttachmentList attachments={files} />, { user: makeUser() });
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Download logo.svg" }));
    expect(await findToast("Download Failed")).toBeInTheDocument();
    expect(await findToast("Only the gig's hirer and worker can see this")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Download notes.txt" }));
    expect(await findToast("Download failed with status 502")).toBeInTheDocument();
  });
});
