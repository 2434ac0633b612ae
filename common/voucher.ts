/** A done refund of a voucher's order, as its refund receipt shows it. */
export interface RefundReceipt {
  refund_no: string;
  amount: string;
  amount_in_words: string;
  reason: string;
  success_time: string;
  /** where the money went back: "支付用户零钱", "招商银行信用卡0403" */
  user_received_account: string;
  /** the gateway's refund id */
  refund_id: string;
}

/** A payment voucher as `orderprint` answers it, shared by the server that makes it and the page that prints it. */
export interface Voucher {
  id: number;
  receipt_no: string;
  order_no: string;
  school: string;
  /** the provider's voucher title line (collection settings), "" when none */
  voucher_title: string;
  student: string;
  student_no: string;
  class: string;
  items: { title: string; amount: string }[];
  amount: string;
  amount_in_words: string;
  paid_at: string;
  transaction_id: string;
  gateway: string;
  status: string;
  refunded_amount: string;
  /** "Y": it paid bills another order had paid, and is refunded by itself */
  duplicate: string;
  /** the order's done refunds, each printed as a refund receipt after the voucher */
  refunds: RefundReceipt[];
}

/** A sheet's labels by key (collection.voucher.*) and a time as the sheet writes it. */
export interface SheetWords {
  label(key: string): string;
  time(iso: string): string;
}

/**
 * The rows of a refund receipt's table, label and value, as the print page and the PDF both write them; `key`
 * names the rows a test reads.
 */
export function refundReceiptRows(v: Voucher, r: RefundReceipt, { label, time }: SheetWords): { label: string; value: string; key?: string }[] {
  return [
    { label: label("student"), value: `${v.student}${v.student_no ? ` (${v.student_no})` : ""}` },
    { label: label("class"), value: v.class },
    { label: label("receipt_no"), value: `${v.receipt_no} (${label("paid_at")}: ${time(v.paid_at)})` },
    { label: label("paid_amount"), value: v.amount },
    { label: label("refund_reason"), value: r.reason },
    { label: label("refund_to"), value: r.user_received_account },
    { label: label("refund_amount"), value: r.amount, key: "amount" },
    { label: label("amount_in_words"), value: r.amount_in_words },
  ];
}
