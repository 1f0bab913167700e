export function App() {
  return <main className="p-4">Gigstr</main>;
}
