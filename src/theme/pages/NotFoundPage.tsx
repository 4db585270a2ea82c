import { useSite } from '../site-context.js';

/** Spec section 8's message, then two ways on: the home page and a search form (a plain GET, so it works without JavaScript). */
export function NotFoundPage() {
  const { strings, homeRoute, searchRoute } = useSite();
  return (
    <div className="not-found">
      <h1>{strings.notFoundTitle}</h1>
      <p>{strings.notFoundBody}</p>
      <p>{strings.notFoundBrokenLink}</p>
      <div className="not-found-ways">
        <a className="button button-primary" href={homeRoute}>{strings.notFoundGoHome}</a>
        <form className="not-found-search" action={searchRoute} method="get" role="search" aria-label={strings.searchPageTitle}>
          <label>
            <span className="visually-hidden">{strings.searchPlaceholder}</span>
            <input className="search-page-input" type="search" name="q" placeholder={strings.searchPlaceholder} />
          </label>
          <button type="submit" className="button button-secondary">{strings.notFoundSearch}</button>
        </form>
      </div>
    </div>
  );
}
