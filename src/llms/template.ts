import type { PhrasingContent } from 'mdast';

/** A template's text with each `{key}` replaced by nodes. */
export function filled(template: string, values: Record<string, PhrasingContent[]>): PhrasingContent[] {
  return template.split(/(\{\w+\})/).flatMap((part): PhrasingContent[] => {
    const key = /^\{(\w+)\}$/.exec(part)?.[1];
    if (key !== undefined && Object.hasOwn(values, key)) return values[key];
    return part ? [{ type: 'text', value: part }] : [];
  });
}
