import type { FieldError } from '../core/errors.js';
import { MAX_JSON_DEPTH, pathBeyondDepth } from '../core/nesting-depth.js';
import { fieldLabel } from './field-label.js';
import { tooDeepMessage, typeErrorMessage } from './scalar-rules.js';

/**
 * Validation of `blocks` (rich-text JSON) attributes with the rules and messages of Strapi's
 * blocks validator: an array of paragraph, heading, quote, code, list and image nodes whose
 * children are text and link nodes. Returns every problem, with yup-style paths
 * (`content[0].children[1].text` → `['content', '0', 'children', '1', 'text']`). A value nested
 * deeper than MAX_JSON_DEPTH is one error, before any other check.
 */
export function blocksErrors(at: readonly string[], value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const name = fieldLabel(at);
  const report = (path: string[], message: string, reported: unknown) => {
    errors.push({ path: [...at, ...path], message, name: 'ValidationError', value: reported });
  };
  if (!Array.isArray(value)) {
    report([], typeErrorMessage(name, 'array', value, value), value);
    return errors;
  }
  if (pathBeyondDepth(value, MAX_JSON_DEPTH)) {
    report([], tooDeepMessage(name), value);
    return errors;
  }
  value.forEach((node, index) => checkBlock(node, [String(index)], name, report));
  return errors;
}

type Report = (path: string[], message: string, value: unknown) => void;
type Node = Record<string, unknown>;

const label = (root: string, path: string[]) => root + path.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

const MIN_CHILDREN: Readonly<Record<string, string>> = {
  paragraph: 'Paragraph node children must have at least one Text or Link node',
  heading: 'Heading node children must have at least one Text or Link node',
  quote: 'Quote node children must have at least one Text or Link node',
  code: 'Quote node children must have at least one Text or Link node',
  list: 'List node children must have at least one ListItem or ListNode',
};

function checkBlock(node: unknown, path: string[], root: string, report: Report): void {
  const type = isNode(node) ? node.type : undefined;
  if (!isNode(node) || !['paragraph', 'heading', 'quote', 'code', 'list', 'image'].includes(String(type))) {
    report(path, 'Block node is of invalid type', node);
    return;
  }
  if (type === 'heading' && ![1, 2, 3, 4, 5, 6].includes(node.level as number)) {
    report(
      [...path, 'level'],
      `${label(root, [...path, 'level'])} must be one of the following values: 1, 2, 3, 4, 5, 6`,
      node.level,
    );
  }
  if (type === 'list' && node.format !== 'ordered' && node.format !== 'unordered') {
    report(
      [...path, 'format'],
      `${label(root, [...path, 'format'])} must be one of the following values: ordered, unordered`,
      node.format,
    );
  }
  if (type === 'image' && !isNode(node.image)) {
    report([...path, 'image'], `${label(root, [...path, 'image'])} is a required field`, node.image);
  }
  const children = checkChildren(node, path, root, report, MIN_CHILDREN[String(type)]);
  children.forEach((child, index) => {
    const childPath = [...path, 'children', String(index)];
    if (type === 'code') checkText(child, childPath, root, report);
    else if (type === 'list') checkListChild(child, childPath, root, report);
    else checkInline(child, childPath, root, report);
  });
}

function checkChildren(
  node: Node,
  path: string[],
  root: string,
  report: Report,
  minMessage: string | undefined,
): unknown[] {
  const childrenPath = [...path, 'children'];
  if (node.children === undefined || node.children === null) {
    report(childrenPath, `${label(root, childrenPath)} is a required field`, node.children);
    return [];
  }
  if (!Array.isArray(node.children)) {
    report(
      childrenPath,
      typeErrorMessage(label(root, childrenPath), 'array', node.children, node.children),
      node.children,
    );
    return [];
  }
  if (minMessage && node.children.length === 0) report(childrenPath, minMessage, node.children);
  return node.children;
}

function checkListChild(child: unknown, path: string[], root: string, report: Report): void {
  if (isNode(child) && child.type === 'list') checkBlock(child, path, root, report);
  else if (isNode(child) && child.type === 'list-item') {
    checkChildren(child, path, root, report, undefined).forEach((inline, index) =>
      checkInline(inline, [...path, 'children', String(index)], root, report),
    );
  } else report(path, 'Inline node must be list-item or list', child);
}

function checkInline(child: unknown, path: string[], root: string, report: Report): void {
  if (isNode(child) && child.type === 'text') checkText(child, path, root, report);
  else if (isNode(child) && child.type === 'link') {
    if (!validLink(child.url)) report([...path, 'url'], 'Please specify a valid link.', child.url);
    checkChildren(child, path, root, report, undefined).forEach((text, index) =>
      checkText(text, [...path, 'children', String(index)], root, report),
    );
  } else report(path, 'Inline node must be Text or Link', child);
}

function checkText(child: unknown, path: string[], root: string, report: Report): void {
  if (!isNode(child) || child.type !== 'text') {
    report(
      [...path, 'type'],
      `${label(root, [...path, 'type'])} must be one of the following values: text`,
      isNode(child) ? child.type : child,
    );
    return;
  }
  if (typeof child.text !== 'string')
    report([...path, 'text'], 'Text must be defined with at least an empty string', child.text);
  for (const mark of ['bold', 'italic', 'underline', 'strikethrough', 'code']) {
    const value = child[mark];
    if (value !== undefined && typeof value !== 'boolean') {
      report([...path, mark], typeErrorMessage(label(root, [...path, mark]), 'boolean', value, value), value);
    }
  }
}

function validLink(url: unknown): boolean {
  const link = typeof url === 'string' ? url : '';
  try {
    new URL(link.startsWith('/') ? `https://strapi.io${link}` : link);
    return true;
  } catch {
    return false;
  }
}
