/**
 * Encryption of stored payment secrets (merchant private keys, APIv3 keys) with AES-256-GCM under the server's
 * payment key: PAYMENT_KEY (32 bytes, base64) or, on the embedded database, a key file `payment.key` (mode 0600)
 * created in the data directory on first use. A PostgreSQL install without PAYMENT_KEY cannot store secrets:
 * the key must not live only on one of several servers sharing the database.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** prefix of every stored ciphertext: lets a later key or algorithm change tell old values apart */
const FORMAT = "v1:";
export const PAYMENT_KEY_FILE = "payment.key";

export interface PaymentKeyOptions {
  /** PAYMENT_KEY: 32 bytes, base64 */
  key?: string;
  /** data directory of the embedded database, where the key file lives when PAYMENT_KEY is unset */
  keyFileDir?: string;
}

/** No payment key is configured: storing or reading merchant secrets is impossible. */
export class PaymentKeyMissingError extends Error {
  override readonly name = "PaymentKeyMissingError";
  constructor() {
    super("No payment key: set PAYMENT_KEY (32 random bytes, base64) to store payment merchant credentials");
  }
}

/** A stored secret that does not decrypt under the current key (other key, or altered). */
export class SecretDecryptionError extends Error {
  override readonly name = "SecretDecryptionError";
}

function decodeKey(base64: string, origin: string): Buffer {
  const key = Buffer.from(base64.trim(), "base64");
  if (key.length !== KEY_BYTES) throw new Error(`${origin} must hold ${KEY_BYTES} bytes in base64 (e.g. openssl rand -base64 32)`);
  return key;
}

/**
 * The payment key's fingerprint ("sha256:" and 16 hex digits of its digest), which tells whether two installs hold
 * the same key without telling the key; null when none is configured (PAYMENT_KEY, else the key file, not created).
 */
export function paymentKeyFingerprint(options: PaymentKeyOptions): string | null {
  let key: Buffer;
  if (options.key) key = decodeKey(options.key, "PAYMENT_KEY");
  else if (options.keyFileDir && fs.existsSync(path.join(options.keyFileDir, PAYMENT_KEY_FILE))) {
    const file = path.join(options.keyFileDir, PAYMENT_KEY_FILE);
    key = decodeKey(fs.readFileSync(file, "utf8"), file);
  } else return null;
  return `sha256:${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
}

/** Reads the key file, creating it (exclusively, 0600) when it does not exist yet. */
function keyFromFile(dir: string): Buffer {
  const file = path.join(dir, PAYMENT_KEY_FILE);
  try {
    fs.writeFileSync(file, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return decodeKey(fs.readFileSync(file, "utf8"), file);
}

export class PaymentSecrets {
  private key: Buffer | undefined;

  /** A malformed PAYMENT_KEY fails here, at start, rather than on the first payment. */
  constructor(private readonly options: PaymentKeyOptions = {}) {
    if (options.key) this.key = decodeKey(options.key, "PAYMENT_KEY");
  }

  private currentKey(): Buffer {
    if (this.key) return this.key;
    if (!this.options.keyFileDir) throw new PaymentKeyMissingError();
    this.key = keyFromFile(this.options.keyFileDir);
    return this.key;
  }

  /** `purpose` (e.g. the column name) is authenticated with the value, so a value moved to another column fails. */
  encrypt(plain: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.currentKey(), iv);
    cipher.setAAD(Buffer.from(purpose, "utf8"));
    const encrypted = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return FORMAT + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString("base64");
  }

  decrypt(stored: string, purpose: string): string {
    if (!stored.startsWith(FORMAT)) throw new SecretDecryptionError("stored secret has an unknown format");
    const raw = Buffer.from(stored.slice(FORMAT.length), "base64");
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretDecryptionError("stored secret is truncated");
    const decipher = createDecipheriv("aes-256-gcm", this.currentKey(), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(purpose, "utf8"));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretDecryptionError("stored secret does not decrypt under the payment key");
    }
  }
}
