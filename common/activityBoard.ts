/** The activity board's answer (`activityboard`), shared by the server that counts it and the page that shows it. */

/** One class's collection (or, with no class, the whole activity's). */
export interface BoardRow {
  class_id: number | null;
  /** the class named with its grade */
  class_title: string;
  bills: number;
  paid: number;
  unpaid: number;
  /** bills paid an amount other than what they owe now (`amount_differs`): the school settles the difference by hand */
  differs: number;
  /** paid bills of those owed (waived and closed ones left out), percent with one decimal */
  rate: number;
  /** yuan */
  due: string;
  /** yuan */
  collected: string;
}

export interface ActivityBoard {
  activity: { id: number; title: string; status: string };
  classes: BoardRow[];
  total: BoardRow;
}
