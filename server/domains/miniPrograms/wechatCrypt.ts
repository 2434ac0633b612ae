/**
 * WeChat's message encryption (the WXBizMsgCrypt scheme of the open platform): a push to a third-party platform is
 * an XML whose `Encrypt` is AES-256-CBC over random(16) + length(4, network order) + message + the receiver's appid,
 * keyed by base64(EncodingAESKey + "="), the IV being the key's first 16 bytes, padded PKCS#7 to 32-byte blocks; the
 * query's msg_signature is sha1 of the sorted token, timestamp, nonce and Encrypt. A push that fails any check is
 * refused whole: nothing of it is read.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { SaxesParser } from "saxes";

const BLOCK = 32;

/** A push that is not WeChat's, or not for this platform. */
export class WechatCryptError extends Error {
  override readonly name = "WechatCryptError";
}

export class WechatMessageCrypt {
  private readonly key: Buffer;

  constructor(
    private readonly token: string,
    encodingAesKey: string,
    /** the receiver: the component appid, which closes every message */
    private readonly appid: string,
  ) {
    this.key = Buffer.from(`${encodingAesKey}=`, "base64");
    if (encodingAesKey.length !== 43 || this.key.length !== 32) throw new WechatCryptError("EncodingAESKey must be 43 characters of base64");
  }

  signature(timestamp: string, nonce: string, encrypted: string): string {
    return createHash("sha1").update([this.token, timestamp, nonce, encrypted].sort().join("")).digest("hex");
  }

  /** `random` is fixed only to check the scheme against its published vectors. */
  encrypt(message: string, random: Buffer = randomBytes(16)): string {
    const body = Buffer.from(message, "utf8");
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    const plain = Buffer.concat([random, length, body, Buffer.from(this.appid, "utf8")]);
    const pad = BLOCK - (plain.length % BLOCK);
    const cipher = createCipheriv("aes-256-cbc", this.key, this.key.subarray(0, 16)).setAutoPadding(false);
    return Buffer.concat([cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), cipher.final()]).toString("base64");
  }

  decrypt(encrypted: string): string {
    let plain: Buffer;
    try {
      const decipher = createDecipheriv("aes-256-cbc", this.key, this.key.subarray(0, 16)).setAutoPadding(false);
      plain = Buffer.concat([decipher.update(Buffer.from(encrypted, "base64")), decipher.final()]);
    } catch {
      throw new WechatCryptError("the message does not decrypt");
    }
    const pad = plain.at(-1) ?? 0;
    if (pad < 1 || pad > BLOCK || plain.length < 20 + pad) throw new WechatCryptError("the message's padding is wrong");
    const content = plain.subarray(16, plain.length - pad);
    const length = content.readUInt32BE(0);
    if (4 + length > content.length) throw new WechatCryptError("the message's length is wrong");
    if (content.subarray(4 + length).toString("utf8") !== this.appid) throw new WechatCryptError("the message is for another appid");
    return content.subarray(4, 4 + length).toString("utf8");
  }

  /** The decrypted message of a push, once its signature is right. */
  open(query: { msg_signature?: string; timestamp?: string; nonce?: string }, body: string): Record<string, string> {
    const encrypted = flatXml(body).Encrypt;
    if (!encrypted || !query.msg_signature || !query.timestamp || !query.nonce) throw new WechatCryptError("the push lacks its Encrypt or signature");
    const expected = Buffer.from(this.signature(query.timestamp, query.nonce, encrypted));
    const given = Buffer.from(query.msg_signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new WechatCryptError("the push's signature is wrong");
    return flatXml(this.decrypt(encrypted));
  }

  /** A push as WeChat sends it: its body and the query that signs it. */
  seal(message: string, timestamp: string, nonce: string): { body: string; query: Record<string, string> } {
    const encrypted = this.encrypt(message);
    return {
      body: `<xml><AppId><![CDATA[${this.appid}]]></AppId><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>`,
      query: { timestamp, nonce, encrypt_type: "aes", msg_signature: this.signature(timestamp, nonce, encrypted) },
    };
  }
}

/** The text of each child of the root of a WeChat XML message (they are flat), CDATA or not. */
export function flatXml(xml: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const parser = new SaxesParser();
  let depth = 0;
  let current: string | undefined;
  parser.on("opentag", (tag) => {
    depth += 1;
    current = depth === 2 ? tag.name : undefined;
    if (current) fields[current] = "";
  });
  parser.on("closetag", () => {
    depth -= 1;
    current = undefined;
  });
  const append = (text: string) => {
    if (current) fields[current] += text;
  };
  parser.on("text", append);
  parser.on("cdata", append);
  try {
    parser.write(xml).close();
  } catch {
    throw new WechatCryptError("the message is not XML");
  }
  for (const [name, value] of Object.entries(fields)) fields[name] = value.trim();
  return fields;
}
