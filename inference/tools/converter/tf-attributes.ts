/** Typed readers for a TF node's protobuf-JSON attributes; a missing attribute names its node. */
import type { TfNode } from './tfjs-model-json';

function attr(node: TfNode, key: string) {
  return node.attr?.[key];
}

export function stringAttr(node: TfNode, key: string, fallback?: string): string {
  const value = attr(node, key)?.s;
  if (value !== undefined) return Buffer.from(value, 'base64').toString('utf8');
  if (fallback !== undefined) return fallback;
  throw new Error(`node ${node.name} (${node.op}) has no attribute ${key}`);
}

export function intListAttr(node: TfNode, key: string, fallback?: number[]): number[] {
  const list = attr(node, key)?.list;
  if (list) return (list.i ?? []).map(Number);
  if (fallback !== undefined) return fallback;
  throw new Error(`node ${node.name} (${node.op}) has no attribute ${key}`);
}

export function stringListAttr(node: TfNode, key: string): string[] {
  return (attr(node, key)?.list?.s ?? []).map((s) => Buffer.from(s, 'base64').toString('utf8'));
}

export function boolAttr(node: TfNode, key: string, fallback: boolean): boolean {
  return attr(node, key)?.b ?? fallback;
}

export function floatAttr(node: TfNode, key: string, fallback: number): number {
  return attr(node, key)?.f ?? fallback;
}
