/** The garment page's messages in zh, en and es: they travel with its chunk only. */
import type { H5Language } from "../i18n";

const en = {
  intro: "This garment's uniform supervision code: one code per garment, with the facts of its batch.",
  code: "Code",
  goods: "Garment",
  specs: "Specs",
  batch: "Batch",
  manufacturer: "Manufacturer",
  standard: "Standard",
  fabric: "Fabric",
  report: "Inspection report",
  report_open: "View the report",
  voided: "This code has been voided: it stands for no garment. Ask the school's supplier.",
  none: "Not given",
} as const;

export type TraceMessageKey = keyof typeof en;

const zh: Record<TraceMessageKey, string> = {
  intro: "这件校服的监管码：一物一码，可查看生产批次与质量信息。",
  code: "监管码",
  goods: "商品",
  specs: "规格",
  batch: "生产批次",
  manufacturer: "生产企业",
  standard: "执行标准",
  fabric: "面料成分",
  report: "检验报告",
  report_open: "查看检验报告",
  voided: "此监管码已作废，不对应任何衣物，请联系学校的供货商。",
  none: "未提供",
};

const es: Record<TraceMessageKey, string> = {
  intro: "El código de control de esta prenda de uniforme: un código por prenda, con los datos de su lote.",
  code: "Código",
  goods: "Prenda",
  specs: "Variante",
  batch: "Lote",
  manufacturer: "Fabricante",
  standard: "Norma",
  fabric: "Composición del tejido",
  report: "Informe de inspección",
  report_open: "Ver el informe",
  voided: "Este código está anulado: no corresponde a ninguna prenda. Consulte al proveedor de la escuela.",
  none: "Sin indicar",
};

export const traceMessages: Record<H5Language, Record<TraceMessageKey, string>> = { zh, en, es };
