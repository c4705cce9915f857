import type { BondDirectionName } from '../../../../common/ui-contract.js';

/** Who the words went to: an arrow to the role, an arrow to the user, or both ways. Decorative. */
const PATHS: Record<BondDirectionName, string> = {
  'user-to-role': 'M4 12h15M14 7l5 5-5 5',
  'role-to-user': 'M20 12H5M10 7l-5 5 5 5',
  mutual: 'M4 12h16M8 8l-4 4 4 4M16 8l4 4-4 4',
};

export function BondDirectionIcon({ direction }: { direction: BondDirectionName | null }) {
  return (
    <svg
      className="icon"
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {direction ? <path d={PATHS[direction]} /> : <path d="M12 20s-7-4.35-7-10a4 4 0 0 1 7-2.65A4 4 0 0 1 19 10c0 5.65-7 10-7 10Z" />}
    </svg>
  );
}
