import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { watchlistFileError } from './watchlist-file-error';

export type XmlNode = Record<string, unknown>;

/** Parses XML with attributes as plain keys and namespace prefixes dropped; malformed XML is refused with its line. */
export function parseXml(text: string): XmlNode {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw watchlistFileError(valid.err.line, `malformed XML: ${valid.err.msg}`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
  });
  return parser.parse(text) as XmlNode;
}

/** Every node named `tag` below `node`, at any depth. */
export function findAll(node: unknown, tag: string): XmlNode[] {
  const found: XmlNode[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value as XmlNode)) {
      if (key === tag)
        for (const item of (Array.isArray(child) ? child : [child]) as unknown[])
          found.push(typeof item === 'object' && item !== null ? (item as XmlNode) : { '#text': item });
      else visit(child);
    }
  };
  visit(node);
  return found;
}

/** The text of a node or of a named child ('' when absent). */
export function text(node: unknown, child?: string): string {
  const value = child === undefined ? node : node && typeof node === 'object' ? (node as XmlNode)[child] : undefined;
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return text((value as XmlNode)['#text']);
  return (typeof value === 'string' ? value : JSON.stringify(value)).trim();
}
