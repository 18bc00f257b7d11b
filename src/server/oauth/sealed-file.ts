// A JSON document kept in the user directory sealed with AES-256-GCM (node:crypto), the key derived
// by scrypt from a secret the caller holds (Node-RED's credential secret): a copied file reveals no
// token, and a changed byte makes it unreadable instead of wrong. Written to a temporary file and
// renamed, so a crash mid-write leaves the old document.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const VERSION = 1;

export interface SealedFile<T> {
  read(): T | undefined;
  write(value: T): void;
}

export function sealedFile<T>(path: string, secret: string): SealedFile<T> {
  const salt = 'node-red-contrib-mcp-gemini/sealed-file';
  const key = scryptSync(secret, salt, 32);
  return {
    read() {
      if (!existsSync(path)) return undefined;
      const doc = JSON.parse(readFileSync(path, 'utf8')) as { v: number; iv: string; tag: string; data: string };
      if (doc.v !== VERSION) throw new Error(`${path}: unknown format ${doc.v}`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(doc.iv, 'base64'));
      decipher.setAuthTag(Buffer.from(doc.tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(doc.data, 'base64')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as T;
    },
    write(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      const doc = { v: VERSION, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(doc), { mode: 0o600 });
      renameSync(temp, path);
    },
  };
}
