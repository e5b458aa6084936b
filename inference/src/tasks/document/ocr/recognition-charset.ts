/**
 * The recogniser's class list comes with the model version (config `assets.charset`), because a
 * new model may bring a new charset. PaddleOCR's layout: class 0 is the CTC blank, then one class
 * per line of the file, then a space. The ModelRunner interface exposes configs but not files, so
 * the asset is read from the model repository on disk (MODEL_REPOSITORY, default "models").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelConfig } from '../../../runtime/model-runner';
import { MRZ_ALPHABET } from '../mrz/check-digit';
import type { Charset } from './ctc-decode';
import { recognitionOutputsOf } from './recognition-outputs';

const cache = new Map<string, Charset>();

export function charsetFromText(text: string, classCount: number): Charset {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const classes = ['', ...lines, ' '];
  if (classes.length !== classCount)
    throw new Error(
      `charset has ${classes.length} classes (blank + ${lines.length} + space) but the model outputs ${classCount}`,
    );
  const mrzClasses = [...MRZ_ALPHABET].map((ch) => {
    const index = classes.indexOf(ch);
    if (index < 0) throw new Error(`charset lacks the MRZ character "${ch}"`);
    return index;
  });
  return { classes, mrzClasses: Int32Array.from(mrzClasses) };
}

export function charsetFor(config: ModelConfig, repository = process.env.MODEL_REPOSITORY ?? 'models'): Charset {
  const key = `${config.name}@${config.version}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const file = config.assets?.charset;
  if (!file) throw new Error(`model ${key} declares no assets.charset in its config.json`);
  const classCount = recognitionOutputsOf(config).classes;
  const charset = charsetFromText(
    readFileSync(path.join(repository, config.name, String(config.version), file), 'utf8'),
    classCount,
  );
  cache.set(key, charset);
  return charset;
}
