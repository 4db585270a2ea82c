// Placeholder module boundary for the search chunk; implemented with the search feature.
export default function SearchDropdown(_props: { query: string; setQuery: (q: string) => void }) {
  return null;
}
