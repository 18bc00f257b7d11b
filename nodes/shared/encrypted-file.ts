// A JSON file in Node-RED's user directory, encrypted with Node-RED's own credential secret (as its
// flows_cred.json is): for what nodes must keep across restarts and cannot keep as credentials,
// which Node-RED writes only at the next deploy (OAuth tokens refreshed at run time, devices paired
// through their OTA check). Written atomically, readable by the user only.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RED } from './red-types';

export interface EncryptedJsonFile {
  /** The file's object; {} when it is missing, damaged or encrypted with another secret. */
  read(): Record<string, unknown>;
  write(all: Record<string, unknown>): void;
}

/** Undefined when the runtime has no user directory (the test helper's runtime). */
export function encryptedJsonFile(RED: RED, fileName: string, purpose: string): EncryptedJsonFile | undefined {
  const userDir = RED.settings?.userDir;
  if (typeof userDir !== 'string' || !userDir) return undefined;
  const path = join(userDir, fileName);
  const key = encryptionKey(RED, purpose);
  return {
    read() {
      if (!existsSync(path)) return {};
      try {
        const doc = JSON.parse(readFileSync(path, 'utf8'));
        return (key ? decrypt(doc, key) : doc) ?? {};
      } catch {
        return {};
      }
    },
    write(all) {
      const body = JSON.stringify(key ? encrypt(all, key) : all);
      writeFileSync(path + '.tmp', body, { mode: 0o600 });
      renameSync(path + '.tmp', path);
    },
  };
}

/** Node-RED's own secret: `credentialSecret` from settings.js, else the one it generated. */
function encryptionKey(RED: RED, purpose: string): Buffer | undefined {
  const settings = RED.settings as { get?(k: string): unknown; credentialSecret?: unknown };
  const get = (k: string) => {
    try {
      return settings.get?.(k);
    } catch {
      return undefined;
    }
  };
  const secret = get('credentialSecret') ?? settings.credentialSecret ?? get('_credentialSecret');
  if (secret === false) return undefined; // the user chose unencrypted credentials
  const text = typeof secret === 'string' && secret ? secret : 'node-red-contrib-mcp-gemini';
  return createHash('sha256').update(`${purpose}:${text}`).digest();
}

function encrypt(value: unknown, key: Buffer): { v: 1; iv: string; tag: string; data: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { v: 1, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

function decrypt(doc: { iv: string; tag: string; data: string }, key: Buffer): Record<string, unknown> {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(doc.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(doc.tag, 'base64'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(doc.data, 'base64')), decipher.final()]).toString('utf8'));
}
