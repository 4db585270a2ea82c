export default function SearchPageResults() {
  return null;
}
