// GraphQL inputs arrive with nulls for omitted fields and Dates for DateTime scalars; the domain
// services validate REST-shaped bodies. This turns one into the other, so both doors share the
// same validation and error messages.
export function restBody(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  );
}
