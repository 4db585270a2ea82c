import type { HomeChapter, HomeData } from '../../shared/model/home.js';
import { CodeBlock } from './CodeBlock.js';
import { Compare } from './Compare.js';
import { useContent } from './content-context.js';

function ChapterLink({ chapter }: { chapter: HomeChapter }) {
  return (
    <>
      <a className="home-chapter-title" href={chapter.href}>
        {chapter.title}
      </a>
      {chapter.description && <p className="home-chapter-description">{chapter.description}</p>}
    </>
  );
}

/**
 * The home page below the hero: one small comparison that shows what the book does, the
 * projects, and every part with its chapters and what each teaches. Rendered by the build only
 * (src/generator/render-page.ts), never bundled for the browser.
 */
export function HomeSections({ home }: { home: HomeData }) {
  const { strings } = useContent();
  return (
    <>
      <section className="home-section home-example" aria-labelledby="home-example-title">
        <h2 id="home-example-title">{strings.homeExampleTitle}</h2>
        <p className="home-section-intro">{strings.homeExampleIntro}</p>
        <Compare>
          {home.example.map((block) => (
            <CodeBlock
              key={block.lang}
              lang={block.lang}
              codeHtml={block.codeHtml}
              output={block.output}
              width={block.width}
            />
          ))}
        </Compare>
      </section>
      {home.projects.length > 0 && (
        <section className="home-section" aria-labelledby="home-projects-title">
          <h2 id="home-projects-title">{strings.homeProjectsTitle}</h2>
          <ul className="home-projects">
            {home.projects.map((project) => (
              <li key={project.href} className="home-card">
                <ChapterLink chapter={project} />
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="home-section" aria-labelledby="home-contents-title">
        <h2 id="home-contents-title">{strings.homeContentsTitle}</h2>
        <div className="home-parts">
          {home.parts.map((part) => (
            <section key={part.label} className="home-part" aria-label={part.label}>
              <h3>{part.label}</h3>
              <ul>
                {part.chapters.map((chapter) => (
                  <li key={chapter.href}>
                    <ChapterLink chapter={chapter} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </section>
      <section className="home-section" id="your-progress" aria-labelledby="home-progress-title">
        <h2 id="home-progress-title">{strings.progress.title}</h2>
        <p className="home-section-intro">{strings.progress.intro}</p>
        {/* Filled in the browser (src/progress/client/ui.ts): the reader's data is only there. */}
        <div className="learner-home" data-learner-home="" />
      </section>
    </>
  );
}
