/** Encryption of stored payment secrets, and where its key comes from. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { PAYMENT_KEY_FILE, PaymentKeyMissingError, PaymentSecrets, SecretDecryptionError } from "../../server/payments/secrets";
import type { Envelope } from "../../server/protocol/envelope";
import { DEMO_PASSWORD } from "../../server/seed/demo";
import { seededServerDatabase } from "../helpers/db";
import { startTestServer } from "../helpers/server";
import { TEST_PASSWORD_COST } from "./support";

const SECRET = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";

describe("payment secrets", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  function tempDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpc-payment-key-"));
    dirs.push(dir);
    return dir;
  }

  it("encrypts with PAYMENT_KEY so that the stored text reveals nothing and decrypts back", () => {
    const secrets = new PaymentSecrets({ key: randomBytes(32).toString("base64") });
    const stored = secrets.encrypt(SECRET, "payment_merchants.private_key");
    expect(stored).not.toContain("PRIVATE KEY");
    expect(stored).not.toContain("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC");
    // a fresh IV each time: the same secret never gives the same text
    expect(secrets.encrypt(SECRET, "payment_merchants.private_key")).not.toBe(stored);
    expect(secrets.decrypt(stored, "payment_merchants.private_key")).toBe(SECRET);
  });

  it("refuses a value decrypted under another key, for another column, or altered", () => {
    const secrets = new PaymentSecrets({ key: randomBytes(32).toString("base64") });
    const stored = secrets.encrypt(SECRET, "payment_merchants.private_key");
    expect(() => new PaymentSecrets({ key: randomBytes(32).toString("base64") }).decrypt(stored, "payment_merchants.private_key")).toThrow(SecretDecryptionError);
    expect(() => secrets.decrypt(stored, "payment_merchants.api_v3_key")).toThrow(SecretDecryptionError);
    const altered = `${stored.slice(0, -4)}${stored.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    expect(() => secrets.decrypt(altered, "payment_merchants.private_key")).toThrow(SecretDecryptionError);
  });

  it("refuses a PAYMENT_KEY that is not 32 bytes at start", () => {
    expect(() => new PaymentSecrets({ key: randomBytes(16).toString("base64") })).toThrow(/PAYMENT_KEY must hold 32 bytes/);
  });

  it("without PAYMENT_KEY nor a data directory (PostgreSQL), storing fails with a clear message", () => {
    const secrets = new PaymentSecrets({});
    expect(() => secrets.encrypt(SECRET, "payment_merchants.private_key")).toThrow(PaymentKeyMissingError);
    expect(() => secrets.encrypt(SECRET, "payment_merchants.private_key")).toThrow(/set PAYMENT_KEY/);
  });

  it("on the embedded database creates payment.key (0600) in the data directory once and keeps using it", () => {
    const dir = tempDir();
    const stored = new PaymentSecrets({ keyFileDir: dir }).encrypt(SECRET, "purpose");
    const keyFile = path.join(dir, PAYMENT_KEY_FILE);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(keyFile, "utf8").trim(), "base64")).toHaveLength(32);
    // a restarted server reads the same key
    expect(new PaymentSecrets({ keyFileDir: dir }).decrypt(stored, "purpose")).toBe(SECRET);
  });

  it("prefers PAYMENT_KEY over the key file", () => {
    const dir = tempDir();
    const key = randomBytes(32).toString("base64");
    const stored = new PaymentSecrets({ key, keyFileDir: dir }).encrypt(SECRET, "purpose");
    expect(fs.existsSync(path.join(dir, PAYMENT_KEY_FILE))).toBe(false);
    expect(new PaymentSecrets({ key }).decrypt(stored, "purpose")).toBe(SECRET);
  });

  it("the server on an embedded database stores merchant credentials under the key file of its data directory", async () => {
    // a copy of the seeded demo: seeding one here would take longer than the test
    const seeded = await seededServerDatabase("pglite");
    const dataDir = seeded.dataDir!;
    const server = await startTestServer({ dataDir, seedDemo: false, staticDir: null, passwordCost: TEST_PASSWORD_COST });
    try {
      const post = async (path: string, body: Record<string, unknown>, token?: string): Promise<Envelope> => {
        const res = await fetch(`${server.url}/weapi/${path}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { "x-token": token } : {}) }, body: JSON.stringify(body) });
        return (await res.json()) as Envelope;
      };
      const login = await post("adminapi", { method: "login", username: "sysadmin", password: DEMO_PASSWORD });
      const token = String(login.data?.token);
      const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const res = await post(
        "adminapiv2",
        {
          method: "paymerchantset",
          gateway: "wechatpay",
          merchant_id: "1900009191",
          appid: "wxd678efh567hg6787",
          merchant_serial_no: "5157F09EFDC096DE15EBE81A47057A7232F1B8E1",
          private_key: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
          api_v3_key: "0123456789abcdefghijABCDEFGHIJ01",
          platform_key_id: "PUB_KEY_ID_0114232134912410000000000000000001",
          platform_public_key: keys.publicKey.export({ type: "spki", format: "pem" }).toString(),
          enabled: "Y",
        },
        token,
      );
      expect(res.return_code).toBe("SUCCESS");
      expect(fs.statSync(path.join(dataDir, PAYMENT_KEY_FILE)).mode & 0o777).toBe(0o600);
    } finally {
      await server.close();
      await seeded.dispose();
    }
  });
});
