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
  /** "Y": it paid bills another order had paid, and is to be refunded */
  duplicate: string;
}
