import { useSite } from '../site-context.js';

export function NotFoundPage() {
  const { strings } = useSite();
  return (
    <div className="not-found">
      <h1>{strings.notFoundTitle}</h1>
      <p>{strings.notFoundBody}</p>
      <p>{strings.notFoundBrokenLink}</p>
    </div>
  );
}
