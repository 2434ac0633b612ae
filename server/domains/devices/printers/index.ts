/**
 * The driver of a printer's vendor. Feie and Yilianyun are made here from their options; the sandbox printer's
 * driver belongs to the devices domain (it prints into the console), which passes it in: this module names the
 * place and makes nothing of it.
 */
import { FeieDriver, type FeieOptions } from "./feie";
import type { FeiePrinter, PrinterDriver, PrinterVendor, SandboxPrinter, YilianyunPrinter } from "./types";
import { YilianyunDriver, type YilianyunOptions } from "./yilianyun";

/** Where the cloud vendors' open platforms are reached (the server's configuration; tests point them at stand-ins). */
export interface PrinterClouds {
  feieOrigin?: string;
  yilianyunOrigin?: string;
  /** Feie's public key for its print callbacks (FEIE_CALLBACK_PUBLIC_KEY): set, prints ask Feie to report back */
  feieCallbackPublicKey?: string;
}

export interface PrinterDriverOptions {
  feie?: FeieOptions;
  yilianyun?: YilianyunOptions;
  /** the sandbox printer's driver, made by the devices domain */
  sandbox?: PrinterDriver<SandboxPrinter>;
}

export function printerDriver(vendor: "feie", options?: PrinterDriverOptions): PrinterDriver<FeiePrinter>;
export function printerDriver(vendor: "yilianyun", options?: PrinterDriverOptions): PrinterDriver<YilianyunPrinter>;
export function printerDriver(vendor: "sandbox", options?: PrinterDriverOptions): PrinterDriver<SandboxPrinter>;
export function printerDriver(vendor: PrinterVendor, options?: PrinterDriverOptions): PrinterDriver;
export function printerDriver(vendor: PrinterVendor, options: PrinterDriverOptions = {}): PrinterDriver {
  switch (vendor) {
    case "feie":
      return new FeieDriver(options.feie);
    case "yilianyun":
      return new YilianyunDriver(options.yilianyun);
    case "sandbox":
      if (!options.sandbox) throw new Error("no sandbox printer driver was given");
      return options.sandbox;
  }
}

export { FEIE_ORIGIN, FeieDriver, type FeieOptions } from "./feie";
export { YILIANYUN_ORIGIN, YilianyunDriver, type YilianyunOptions } from "./yilianyun";
export * from "./types";
