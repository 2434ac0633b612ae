/**
 * WeChat Pay API v3 cryptography: the merchant's request signature (Authorization header) and JSAPI paySign,
 * verification of the signature WeChat Pay puts on its answers and notifications, and decryption of
 * AEAD_AES_256_GCM resources.
 */
import { createDecipheriv, createSign, createVerify, randomBytes, type KeyObject } from "node:crypto";
import { GatewayVerificationError } from "../gateway";

export const AUTH_SCHEME = "WECHATPAY2-SHA256-RSA2048";
/** WeChat Pay refuses, and we refuse, signed messages older or newer than this */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;
const GCM_TAG_BYTES = 16;

export interface RequestSigner {
  merchantId: string;
  /** serial number of the merchant API certificate whose private key signs */
  serialNo: string;
  privateKey: KeyObject;
}

function rsaSha256(privateKey: KeyObject, message: string): string {
  return createSign("RSA-SHA256").update(message, "utf8").sign(privateKey, "base64");
}

/** 32 random hexadecimal characters (WeChat allows up to 32). */
export function newNonce(): string {
  return randomBytes(16).toString("hex").toUpperCase();
}

/** The message a request signature covers: method, path with query, timestamp, nonce and body, each + "\n". */
export function requestMessage(method: string, pathWithQuery: string, timestamp: string, nonce: string, body: string): string {
  return `${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`;
}

/** The message WeChat Pay signs on answers and notifications. */
export function responseMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

export function authorizationHeader(signer: RequestSigner, method: string, pathWithQuery: string, body: string, timestamp: string, nonce: string): string {
  const signature = rsaSha256(signer.privateKey, requestMessage(method, pathWithQuery, timestamp, nonce, body));
  return `${AUTH_SCHEME} mchid="${signer.merchantId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${signer.serialNo}"`;
}

/** The message a JSAPI paySign covers: appId, timeStamp, nonceStr and package, each + "\n". */
function jsapiPayMessage(appId: string, timeStamp: string, nonceStr: string, prepayPackage: string): string {
  return `${appId}\n${timeStamp}\n${nonceStr}\n${prepayPackage}\n`;
}

/** The paySign WeChat's JS bridge checks before it shows the payment sheet: signed with the merchant's key. */
export function jsapiPaySign(signer: RequestSigner, appId: string, timeStamp: string, nonceStr: string, prepayPackage: string): string {
  return rsaSha256(signer.privateKey, jsapiPayMessage(appId, timeStamp, nonceStr, prepayPackage));
}

/** The WeChat Pay public key (or platform certificate) that verifies what WeChat Pay signs. */
export interface PlatformKey {
  /** PUB_KEY_ID_... or the platform certificate's serial */
  id: string;
  publicKey: KeyObject;
}

export type SignedHeaders = Readonly<Record<string, string | undefined>>;

/**
 * Checks the Wechatpay-* headers over `body`: known key serial, fresh timestamp and a valid RSA-SHA256 signature.
 * Header names are lower case (Node's).
 */
export function verifySignedMessage(headers: SignedHeaders, body: string, platformKey: PlatformKey, now: Date): void {
  const timestamp = headers["wechatpay-timestamp"];
  const nonce = headers["wechatpay-nonce"];
  const signature = headers["wechatpay-signature"];
  const serial = headers["wechatpay-serial"];
  const signatureType = headers["wechatpay-signature-type"];
  if (!timestamp || !nonce || !signature || !serial) throw new GatewayVerificationError("unsigned message");
  if (signatureType !== undefined && signatureType !== AUTH_SCHEME) throw new GatewayVerificationError(`unsupported signature type ${signatureType}`);
  if (serial !== platformKey.id) throw new GatewayVerificationError(`unknown WeChat Pay key serial ${serial}`);
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now.getTime() / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
    throw new GatewayVerificationError("message timestamp out of range");
  }
  const valid = createVerify("RSA-SHA256").update(responseMessage(timestamp, nonce, body), "utf8").verify(platformKey.publicKey, signature, "base64");
  if (!valid) throw new GatewayVerificationError("bad WeChat Pay signature");
}

export interface EncryptedResource {
  algorithm: string;
  ciphertext: string;
  nonce: string;
  associated_data?: string;
}

/** Decrypts a notification resource: base64(ciphertext || 16-byte tag) under the 32-byte APIv3 key. */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== "AEAD_AES_256_GCM") throw new GatewayVerificationError(`unsupported resource algorithm ${resource.algorithm}`);
  const data = Buffer.from(resource.ciphertext, "base64");
  if (data.length <= GCM_TAG_BYTES) throw new GatewayVerificationError("resource ciphertext too short");
  try {
    const decipher = createDecipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(resource.nonce, "utf8"));
    decipher.setAAD(Buffer.from(resource.associated_data ?? "", "utf8"));
    decipher.setAuthTag(data.subarray(data.length - GCM_TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - GCM_TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new GatewayVerificationError("resource does not decrypt under the APIv3 key");
  }
}
