/**
 * Preloaded (`node --require`) into the API and the worker by bench:decision's `--store-profile DIR`:
 * the MongoDB driver's command monitoring on every client, one JSON line per command in
 * DIR/<role>-<pid>.jsonl (time, command, collection, filter shape, command and reply sizes in BSON
 * bytes). For counting what the store is asked; it slows the processes, so CPU figures of such a run are not kept.
 */
'use strict';
const { appendFileSync } = require('node:fs');
const path = require('node:path');
const mongodb = require('mongodb');

const dir = process.env.STORE_PROFILE_DIR;
const role = process.argv.some((a) => a.includes('worker')) ? 'worker' : 'api';
const file = path.join(dir, `${role}-${process.pid}.jsonl`);
const pending = new Map();
let lines = [];
const flush = () => {
  if (lines.length) appendFileSync(file, lines.join(''));
  lines = [];
};
setInterval(flush, 200).unref();
process.on('exit', flush);

/** The filter's keys with each value's operators, never its values (`{_id: $in, status: =}`). */
function shape(filter) {
  if (!filter || typeof filter !== 'object') return '';
  return Object.entries(filter)
    .map(([k, v]) => {
      if (
        v &&
        typeof v === 'object' &&
        !Array.isArray(v) &&
        !(v instanceof Date) &&
        !Buffer.isBuffer(v) &&
        v._bsontype === undefined
      ) {
        const ops = Object.keys(v).filter((o) => o.startsWith('$'));
        if (ops.length) return `${k}:${ops.join(',')}`;
        if (k.startsWith('$')) return `${k}[${Array.isArray(v) ? v.length : 1}]`;
      }
      if (k.startsWith('$') && Array.isArray(v)) return `${k}[${v.map(shape).join('|')}]`;
      return k;
    })
    .sort()
    .join(' ');
}

function describe(e) {
  const c = e.command;
  const name = e.commandName;
  const coll = typeof c[name] === 'string' ? c[name] : '';
  let filter = '';
  let n = 1;
  let update = '';
  if (name === 'find' || name === 'count' || name === 'aggregate' || name === 'distinct')
    filter = shape(c.filter ?? c.query ?? (c.pipeline && c.pipeline[0] && c.pipeline[0].$match));
  if (name === 'delete') {
    filter = (c.deletes || []).map((d) => shape(d.q)).join(' ; ');
    n = (c.deletes || []).length;
  }
  if (name === 'update') {
    filter = (c.updates || []).map((u) => shape(u.q)).join(' ; ');
    update = (c.updates || []).map((u) => Object.keys(u.u || {}).join(',')).join(' ; ');
    n = (c.updates || []).length;
  }
  if (name === 'findAndModify') {
    filter = shape(c.query);
    update = c.remove ? 'remove' : Object.keys(c.update || {}).join(',');
  }
  if (name === 'insert') n = (c.documents || []).length;
  return { name, coll, filter, update, n };
}

const patchedConnect = mongodb.MongoClient.prototype.connect;
const seen = new WeakSet();
mongodb.MongoClient.prototype.connect = function connect(...args) {
  if (!seen.has(this)) {
    seen.add(this);
    this.monitorCommands = true;
    this.on('commandStarted', (e) => {
      if (e.commandName === 'hello' || e.commandName === 'isMaster' || e.commandName === 'ping') return;
      pending.set(e.requestId, { t: Date.now(), ...describe(e), size: mongodb.BSON.calculateObjectSize(e.command) });
    });
    const done = (e, ok) => {
      const p = pending.get(e.requestId);
      if (!p) return;
      pending.delete(e.requestId);
      p.ok = ok;
      p.reply = ok && e.reply ? mongodb.BSON.calculateObjectSize(e.reply) : 0;
      p.ms = e.duration;
      lines.push(JSON.stringify(p) + '\n');
    };
    this.on('commandSucceeded', (e) => done(e, true));
    this.on('commandFailed', (e) => done(e, false));
  }
  return patchedConnect.apply(this, args);
};
