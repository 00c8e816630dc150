import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';

// A dialog over a screen, for every sheet the app opens (Review's keys, Make videos, Reshoot): modal, so
// what is behind is inert and the keyboard and a screen reader stay in it; Esc closes it, and the keyboard
// goes back where it was when it opened. A screen's own keys never see a key pressed in it.

export function ModalSheet({
  labelledBy,
  describedBy,
  className,
  onClose,
  onKeyDown,
  children,
}: {
  labelledBy: string;
  describedBy?: string;
  className?: string;
  onClose: () => void;
  /** A key of the sheet's own, before it is kept from the screen behind. */
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Where the keyboard was as the sheet was first drawn (an effect run again by StrictMode would find it
  // inside the sheet already).
  const opener = useRef(document.activeElement);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    const before = opener.current;
    // A frame later: once the sheet is gone, and what was behind it is no longer inert.
    return () => {
      requestAnimationFrame(() => {
        if (before instanceof HTMLElement && !dialog.current?.open) before.focus();
      });
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className={className ? `sheet ${className}` : 'sheet'}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // Chromium may close a dialog on Esc without a cancel event (twice without a click between): the
      // screen's state follows it all the same.
      onClose={onClose}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        event.stopPropagation();
      }}
    >
      {children}
    </dialog>
  );
}
