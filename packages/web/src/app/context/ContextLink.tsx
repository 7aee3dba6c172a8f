import { Link } from 'react-router';
import type { LinkProps } from 'react-router';
import { useContextLink } from './platform-context';

/** A router link that keeps org, cluster and project; use it as Mantine's `component`. */
export function ContextLink({ to, ...props }: Omit<LinkProps, 'to'> & { to: string }) {
  const link = useContextLink();
  return <Link to={link(to)} {...props} />;
}
