/**
 * llms.txt read the way the llmstxt.org proposal's own parser reads it (its miniparse: the H1 title,
 * a one-line quote as summary, free text up to the first H2, then H2 sections in which every line
 * is a `- [title](url): description` link). A line of a section that is not such a link fails here,
 * as it breaks that parser.
 */
export interface LlmsTxt {
  title: string;
  summary?: string;
  info: string;
  sections: Array<{ title: string; links: Array<{ title: string; url: string; description?: string }> }>;
}

const LINK = /^-\s*\[(?<title>[^\]]+)\]\((?<url>[^)]+)\)(?::\s*(?<description>.*))?$/;

export function parseLlmsTxt(text: string): LlmsTxt {
  const [start, ...rest] = text.split(/^##\s*(.*?)$/m);
  const head = /^#\s*(?<title>.+?)$\n+(?:^>\s*(?<summary>.+?)$)?\n+(?<info>[\s\S]*)$/m.exec(start.trim());
  if (!head?.groups) throw new Error('llms.txt does not start with "# title"');
  const sections: LlmsTxt['sections'] = [];
  for (let i = 0; i < rest.length; i += 2) {
    const links = rest[i + 1]
      .split(/\n+/)
      .filter((line) => line.trim())
      .map((line) => {
        const match = LINK.exec(line);
        if (!match?.groups)
          throw new Error(`a line of section "${rest[i]}" is not a "- [title](url): notes" link: ${line}`);
        const { title, url, description } = match.groups;
        return { title, url, description };
      });
    sections.push({ title: rest[i], links });
  }
  return { title: head.groups.title, summary: head.groups.summary, info: head.groups.info, sections };
}
