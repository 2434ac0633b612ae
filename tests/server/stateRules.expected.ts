/**
 * The state rules of the product, written out by hand from what each transition is for (the catalogue's comments,
 * the issues that asked for them), never read from the declarations: tests/server/actions.test.ts holds the
 * declarations to this table and calls every action in every state as every role. A declaration that drifts from
 * it fails there; a state or an action added to the catalogue must be added here, with the reasoning beside it.
 *
 * Role keys are spelled out (no named sets from common/roleKeys.ts): a set widened there must show up here too.
 */

export interface ExpectedAction {
  /** the states the action starts from: in any other it is refused and nothing changes */
  from: readonly string[];
  /** the role keys that may call it: any other key is refused whatever the state */
  roles: readonly string[];
  /** what the record's other fields must hold for it, besides its state (a delivery by express) */
  onlyWhere?: Readonly<Record<string, readonly string[]>>;
  /**
   * the refusal's words in a state it does not start from, where they must say more than the state (which order
   * holds a code); in any other such state the refusal names the state
   */
  refusedAs?: Readonly<Record<string, RegExp>>;
}

export interface ExpectedEntity {
  /** every state of the entity's state field */
  states: readonly string[];
  /** every action declared on the entity, by name */
  actions: Readonly<Record<string, ExpectedAction>>;
}

// who reads a school's activities, bills and fee orders: the v1 school and provider, the v2 provider, its staff, the v2 school
const SCHOOL_MONEY_READERS = ["school", "service", "servicev2", "service_schadminv2", "schoolv2"];
// who makes activities, opens and closes them and settles bills by hand: the v1 school and provider, the v2 provider
const COLLECTION_MANAGERS = ["school", "service", "servicev2"];
const PROVIDERS = ["service", "servicev2"];
const OPERATORS = ["system", "systemv2"];

export const expectedStateRules: Readonly<Record<string, ExpectedEntity>> = {
  activity: {
    states: ["draft", "open", "closed"],
    actions: {
      // a draft is opened, an open one closed; a closed activity stays closed
      activityact: { from: ["draft", "open"], roles: COLLECTION_MANAGERS },
    },
  },
  bill: {
    // amount_differs: paid by an order of another amount, the difference settled by hand
    states: ["unpaid", "paid", "part_refunded", "refunded", "waived", "closed", "amount_differs"],
    actions: {
      // only what is still owed is reminded, waived or changed: a paid, refunded, part-refunded or amount_differs
      // bill is money taken, a waived or closed one is owed by nobody
      billremind: { from: ["unpaid"], roles: SCHOOL_MONEY_READERS },
      billwaive: { from: ["unpaid"], roles: COLLECTION_MANAGERS },
      billadjust: { from: ["unpaid"], roles: COLLECTION_MANAGERS },
    },
  },
  order: {
    states: ["unpaid", "paid", "part_refunded", "refunded", "closed"],
    actions: {
      // money comes back only from an order that took some and has some left
      refundadd: { from: ["paid", "part_refunded"], roles: SCHOOL_MONEY_READERS },
      // an order whose items are goods sends them once it is paid, by express, as a shop order does; refunded in full,
      // nothing is sent; its goods' own state (fulfil_status) must still be undelivered
      zdorderdeliver: { from: ["paid", "part_refunded"], roles: ["servicev2"], onlyWhere: { delivery: ["express"], fulfil_status: ["undelivered"] } },
      // what was sent arrives
      zdorderreceive: { from: ["paid", "part_refunded"], roles: ["servicev2"], onlyWhere: { fulfil_status: ["delivered"] } },
    },
  },
  refund: {
    states: ["applied", "rejected", "processing", "success", "closed", "abnormal"],
    actions: {
      // a request is decided once: an approved one (processing) is at the gateway and cannot be reviewed again
      refundreview: { from: ["applied"], roles: PROVIDERS },
    },
  },
  paychnl: {
    states: ["draft", "submitted", "approved", "rejected", "disabled"],
    actions: {
      // the provider submits its material, again once a rejection is corrected
      paychnlsubmit: { from: ["draft", "rejected"], roles: PROVIDERS },
      // the platform reviews what was submitted
      paychnlreview: { from: ["submitted"], roles: OPERATORS },
      // either side stops a channel taking payments...
      paychnldisable: { from: ["approved"], roles: [...OPERATORS, ...PROVIDERS] },
      // ...and only the platform starts it again
      paychnlenable: { from: ["disabled"], roles: OPERATORS },
      // a day of a channel that took payments is reconciled, disabled since or not
      reconrun: { from: ["approved", "disabled"], roles: PROVIDERS },
    },
  },
  recon: {
    states: ["balanced", "differences", "resolved", "failed"],
    actions: {},
  },
  reconitem: {
    states: ["ok", "open", "resolved"],
    actions: {
      // only an open difference is resolved: a match needs nothing, a resolved one was done
      reconresolve: { from: ["open"], roles: PROVIDERS },
    },
  },
  settlement: {
    states: ["settled", "pending"],
    actions: {},
  },
  actcode: {
    states: ["unused", "used", "void"],
    actions: {
      // a redeemed code is history, a void one is void already
      actcodevoid: { from: ["unused"], roles: OPERATORS },
    },
  },
  shoporder: {
    // paid: undelivered until sent (delivered) or collected (completed); closed unpaid or refunded in full: cancelled
    states: ["unpaid", "undelivered", "delivered", "completed", "cancelled"],
    actions: {
      // money comes back only from an order that took some (its refunds hold what is left)
      shoporderrefund: { from: ["undelivered", "delivered", "completed"], roles: ["servicev2"] },
      // a paid order goes to its express company once; a pickup order is collected instead
      shoporderdeliver: { from: ["undelivered"], roles: ["servicev2"], onlyWhere: { delivery: ["express"] } },
      // what was sent arrives; a pickup order is completed by its collection
      shoporderreceive: { from: ["delivered"], roles: ["servicev2"] },
      // only an order nobody paid is called off; a paid one is refunded instead
      shopordercancel: { from: ["unpaid"], roles: ["servicev2"] },
    },
  },
  aftersale: {
    // asked; a return agreed, sent back and received; a refund without return agreed; refunded; or ended without money
    states: ["applied", "agreed", "returning", "received", "refunding", "completed", "refused", "refused_receipt", "cancelled"],
    actions: {
      // the provider decides once, on what was asked
      aftersalereview: { from: ["applied"], roles: ["servicev2"] },
      // only goods on their way back are received or refused
      aftersalereceive: { from: ["returning"], roles: ["servicev2"] },
      // only money asked and not yet back is asked again
      aftersaleretry: { from: ["received", "refunding"], roles: ["servicev2"] },
    },
  },
  printjob: {
    // a receipt waiting to be sent, handed to the printer's platform, printed, or given up after its tries
    states: ["queued", "sent", "printed", "failed"],
    actions: {
      // the provider (either generation's) sends a receipt again once the job gave up; one queued, sent or printed
      // is never sent twice by hand
      printjobretry: { from: ["failed"], roles: ["service", "servicev2"] },
    },
  },
  goods: {
    // on sale in the shop, or taken off it: the provider moves it in its form, no action of its own
    states: ["on", "off"],
    actions: {},
  },
  tracesource: {
    // a garment's code: free until bound to an order item or voided
    states: ["free", "bound", "voided"],
    actions: {
      // a misprinted or lost label is voided before it goes with a garment; a bound one stays with its garment
      tracesourcevoid: { from: ["free"], roles: ["servicev2"] },
      // at packing or at pickup a free code goes with a paid order's item, once: a bound one says which order holds
      // it (the clerk has the wrong garment in hand), a voided one that it is voided
      tracesourcebind: { from: ["free"], roles: ["servicev2"], refusedAs: { bound: /^Code \S+ is already bound to order \d+$/, voided: /^Code \S+ is voided$/ } },
    },
  },
  article: {
    // a website article: written as a draft, published by its form (and shown once its time has come)
    states: ["draft", "published"],
    actions: {},
  },
  registration: {
    // a provider's application: the operators approve it (making the provider) or reject it, once
    states: ["pending", "approved", "rejected"],
    actions: {
      registerreview: { from: ["pending"], roles: OPERATORS },
    },
  },
  miniapp: {
    // a mini-program's code: committed from the template (again after a refusal or over a live version), audited by the
    // platform, released once passed, reverted once live; the privacy rules at any time; the sandbox's controls for
    // the operators alone. The publishers: the operators, and a provider with the upload flag on its own apps.
    states: ["none", "committed", "auditing", "audit_failed", "audit_passed", "released"],
    actions: {
      miniappauthorize: { from: ["none", "committed", "auditing", "audit_failed", "audit_passed", "released"], roles: [...OPERATORS, "xcxupload", "xcxuploadv2"] },
      miniappcommit: { from: ["none", "committed", "audit_failed", "released"], roles: [...OPERATORS, "xcxupload", "xcxuploadv2"] },
      miniappsubmit: { from: ["committed"], roles: [...OPERATORS, "xcxupload", "xcxuploadv2"] },
      miniappaudit: { from: ["auditing"], roles: [...OPERATORS, "xcxupload", "xcxuploadv2"] },
      miniapprelease: { from: ["audit_passed"], roles: [...OPERATORS, "xcxupload", "xcxuploadv2"] },
      miniapprevert: { from: ["released"], roles: [...OPERATORS, "xcxupload", "xcxuploadv2"] },
      miniappprivacy: { from: ["none", "committed", "auditing", "audit_failed", "audit_passed", "released"], roles: [...OPERATORS, "xcxupload", "xcxuploadv2"] },
      miniappsandbox: { from: ["none", "committed", "auditing", "audit_failed", "audit_passed", "released"], roles: OPERATORS },
    },
  },
};

/**
 * The bill states a payer may put in a fee order (h5pay): an order pays what is owed, so a waived, closed, paid,
 * refunded or amount_differs bill is refused. The payer page's rule, not an action of the catalogue.
 */
export const expectedPayableBillStates: readonly string[] = ["unpaid"];
