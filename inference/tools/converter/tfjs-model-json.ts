/**
 * The parts of a TFJS graph-model model.json (tfjs-converter's format) that the converter reads.
 * Attribute values arrive as protobuf JSON: strings base64-encoded, int64 as decimal strings.
 */

export interface TfAttrValue {
  s?: string;
  i?: string;
  f?: number;
  b?: boolean;
  type?: string;
  shape?: { dim?: Array<{ size: string }>; unknownRank?: boolean };
  list?: { s?: string[]; i?: string[]; f?: number[] };
}

export interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttrValue>;
}

export interface TfSignatureEntry {
  name: string;
  dtype: string;
  tensorShape?: { dim?: Array<{ size: string }> };
}

export interface Quantization {
  dtype: 'float16' | 'uint8' | 'uint16';
  min?: number;
  scale?: number;
}

export interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32' | 'bool';
  quantization?: Quantization;
}

export interface WeightsGroup {
  paths: string[];
  weights: WeightSpec[];
}

export interface TfjsModelJson {
  format: string;
  modelTopology: { node: TfNode[] };
  weightsManifest: WeightsGroup[];
  signature?: { inputs: Record<string, TfSignatureEntry>; outputs: Record<string, TfSignatureEntry> };
  userDefinedMetadata?: { signature?: TfjsModelJson['signature'] };
}
