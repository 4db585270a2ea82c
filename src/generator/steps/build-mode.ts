/**
 * What a build is for:
 * - `in-memory`: every file of the site in BuildResult.files (tests, export, one-off tools); a
 *   Builder built again redoes only what changed.
 * - `streamed`: `pybook build`. The pages' documents stay out of `files` and each is rendered only
 *   when it is written (BuildResult.documents). Every document carries the whole sidebar, so a
 *   1,000-chapter book's documents are some 450 MB of strings: held all at once they were most of
 *   its memory. Such a builder keeps nothing it rendered for a next build.
 * - `watch`: `pybook watch`. jieba's whole dictionary is loaded once (any word an author adds later
 *   segments right), and route modules and search files get stable names, so that one edit changes
 *   one page's HTML instead of every page's (the server revalidates them on every request).
 */
export type BuildMode = 'in-memory' | 'streamed' | 'watch';
