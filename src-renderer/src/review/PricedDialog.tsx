import { type ReactNode, useEffect, useRef, useState } from 'react';
import { messageOf } from '../api/index.ts';
import { ModalSheet } from '../components/ModalSheet.tsx';
import { Notice } from '../components/Notice.tsx';
import { credits } from '../format.ts';

// What Review's paid dialogs (Make videos, Reshoot) share: their settings, what those cost per product
// against the balance, asked of core again as they change (only the answer to the latest request is shown:
// what the service will charge), and the one button that spends it, named with the count and the price.

/** The part of a quote every paid dialog shows. */
export interface Priced {
  credits: number;
  balance: number;
  shortfall: number;
}

/**
 * The quote for `request` (null: not yet, or not one core can price), asked again as it changes, and the
 * action that spends it. An answer to a request since changed is dropped.
 */
export function usePriced<R, Q extends Priced>(
  request: R | null,
  calls: { quote: (request: R) => Promise<Q>; make: (request: R) => Promise<unknown> },
  onMade: () => void,
) {
  const [quote, setQuote] = useState<Q | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef({ request, calls });
  latest.current = { request, calls };
  // The request's settings, not its identity: a render that did not change them asks nothing.
  const key = request === null ? null : JSON.stringify(request);
  useEffect(() => {
    const { request: asked, calls: call } = latest.current;
    if (key === null || asked === null) return;
    let current = true;
    call.quote(asked).then(
      (answer) => {
        if (!current) return;
        setQuote(answer);
        setError(null);
      },
      (failure: unknown) => {
        if (current) setError(messageOf(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [key]);

  const make = async () => {
    if (request === null) return;
    setBusy(true);
    try {
      await calls.make(request);
      onMade();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };
  return { quote, error, setError, busy, make };
}

/** A quote's products, a row each, under `columns` and a Credits column, with the total against the balance. */
export function CostTable({
  columns,
  quote,
  children,
}: {
  /** The columns before Credits, the product's name first. */
  columns: string[];
  quote: Priced;
  children: ReactNode;
}) {
  return (
    <table className="cost-table">
      <thead>
        <tr>
          {[...columns, 'Credits'].map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td colSpan={columns.length - 1}>Balance {credits(quote.balance)}</td>
          <td>{credits(quote.credits)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/** The dialog: title, settings, what went wrong, the quote, and Cancel beside the button that spends it. */
export function PricedDialog({
  id,
  title,
  description,
  settings,
  error,
  action,
  onClose,
  children,
}: {
  /** Names the dialog's class and its title's id. */
  id: string;
  title: string;
  description?: ReactNode;
  settings: ReactNode;
  error: string | null;
  action: { label: string; disabled: boolean; onClick: () => void };
  onClose: () => void;
  /** The quote and what goes with it. */
  children: ReactNode;
}) {
  return (
    <ModalSheet
      className={id}
      labelledBy={`${id}-title`}
      describedBy={description ? `${id}-why` : undefined}
      onClose={onClose}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      {description && (
        <p id={`${id}-why`} className="muted">
          {description}
        </p>
      )}
      {settings}
      {error && <Notice kind="error">{error}</Notice>}
      {children}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={action.disabled} onClick={action.onClick}>
          {action.label}
        </button>
      </div>
    </ModalSheet>
  );
}
