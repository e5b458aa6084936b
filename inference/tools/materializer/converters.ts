/**
 * How a config's source becomes model.onnx: no source.conversion means copy the file, otherwise
 * source.conversion names one of the conversions below. Each must be deterministic, because
 * config.json pins the sha256 of its output.
 */
import { readFile } from 'node:fs/promises';
import { ctcHeadsFromPackage } from '../converter/ctc-heads/ctc-heads-from-package';
import { convertDlibResnetWeights } from '../converter/dlib-resnet/dlib-resnet-to-onnx';
import { convertTfjsModelFile } from '../converter/tfjs-to-onnx';
import type { PackageSource } from './repository-config';

export type Conversion = (sourceFile: string, source: PackageSource) => Promise<Uint8Array>;

const copy: Conversion = (file) => readFile(file);

const conversions: Record<string, Conversion> = {
  'tfjs-graph-to-onnx': (file, source) =>
    convertTfjsModelFile({
      modelJsonPath: file,
      tensorNames: source.tensor_names,
      provenance: `${source.package}@${source.package_version} ${source.path}`,
    }),
  // face-api ships this net as weights only; its architecture is rebuilt in code.
  'dlib-resnet-weights-to-onnx': (file, source) =>
    convertDlibResnetWeights(file, `${source.package}@${source.package_version} ${source.path}`),
  // The recogniser with greedy CTC decoding's argmax and maxima in the graph (a few bytes per frame back).
  'append-ctc-greedy-heads': (file, source) => ctcHeadsFromPackage(file, source),
  // The same with the classifier cut to the Latin classes the service's documents print.
  'slice-latin-classes-append-ctc-heads': (file, source) => ctcHeadsFromPackage(file, source, { latinOnly: true }),
};

export function conversionFor(name: string | undefined): Conversion | undefined {
  return name === undefined ? copy : conversions[name];
}
