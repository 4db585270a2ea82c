import { useSite } from '../site-context.js';

/** Spec section 8's message, then two ways on: the home page and the search page. */
export function NotFoundPage() {
  const { strings, homeRoute, searchRoute } = useSite();
  return (
    <div className="not-found">
      <h1>{strings.notFoundTitle}</h1>
      <p>{strings.notFoundBody}</p>
      <p>{strings.notFoundBrokenLink}</p>
      <p className="not-found-ways">
        <a className="button button-primary" href={homeRoute}>
          {strings.notFoundGoHome}
        </a>
        <a className="button button-secondary" href={searchRoute}>
          {strings.notFoundSearch}
        </a>
      </p>
    </div>
  );
}
