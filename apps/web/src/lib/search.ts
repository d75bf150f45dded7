/** Case-insensitive substring match (spec 5), ignoring spaces around the query. */
export function matchesQuery(text: string, query: string): boolean {
  return text.toLocaleLowerCase().includes(query.trim().toLocaleLowerCase());
}
