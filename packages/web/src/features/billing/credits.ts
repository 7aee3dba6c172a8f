/**
 * The balance that binds a user: the organization's, or their own limit in it when
 * that is lower. Balances are decimal strings; null means unlimited. A value that is not a number
 * is passed on, so that the top bar says it cannot read it instead of hiding it.
 */
export function bindingCredits(org: string | null, member: string | null | undefined) {
  if (member === null || member === undefined) return org;
  if (org === null) return member;
  const [o, m] = [Number(org), Number(member)];
  if (Number.isNaN(o)) return org;
  if (Number.isNaN(m)) return member;
  return m < o ? member : org;
}

/** Credits as the billing views show them: grouped digits, every decimal the server keeps (4). */
export const formatCredits = (credits: string) => {
  const value = Number(credits);
  return Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: 4 })
    : credits;
};
