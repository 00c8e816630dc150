import { type DragEvent, useEffect, useState } from 'react';
import { counted } from '../../../src-main/shared/counted.ts';
import type {
  CatalogView,
  FolderListing,
  PhotoReach,
  ScannedProductView,
  ScanView,
  ShootSettingsView,
} from '../../../src-main/shared/models.ts';
import { api, inBrowser, messageOf } from '../api/index.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { browsableHome, FolderBrowser } from '../components/FolderBrowser.tsx';
import { ModelPicker } from '../components/ModelPicker.tsx';
import { Notice } from '../components/Notice.tsx';
import { PriceLine } from '../components/PriceLine.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { BackgroundChoice, ShotChoices } from '../components/ShotChoices.tsx';
import { StylePicker } from '../components/StylePicker.tsx';
import { VideoChoices } from '../components/VideoChoices.tsx';
import { VirtualList } from '../components/VirtualList.tsx';
import { credits, fileName, listed } from '../format.ts';
import { useAccounts } from '../stores/accounts.ts';
import { useCatalog } from '../stores/catalog.ts';
import { useNavigation } from '../stores/navigation.ts';
import { useNewBatch, type VideoStep } from '../stores/new-batch.ts';
import { BatchCap, BrandChoice, CapsPreview } from './new-batch/Billing.tsx';
import { startBlocker } from './new-batch/start-blocker.ts';

const VIDEO_STEPS: Array<{ id: VideoStep; label: string }> = [
  { id: 'after_review', label: 'After review, from my picks' },
  { id: 'at_once', label: 'At once, from the first shots' },
  { id: 'none', label: 'No video' },
];

/** Which styles make 6 shots, and what the others make instead, in the catalog's words. */
function sixShotRule(catalog: CatalogView): string {
  const styles = listed(catalog.styles.filter((style) => style.sixShots).map((style) => style.label));
  const most = Math.max(...catalog.shotCounts);
  return `${most} shots are made only in the ${styles} styles`;
}

/** Said where a drop brought no path: a browser hands the page a file's contents, never where it is. */
const NO_PATH_DROPPED = inBrowser
  ? "A browser does not tell Adbatch where dropped files are: type the folder's path above and press Add, or use Open Folder… to browse."
  : 'Dropped files have no location here: use Open Folder… instead.';

function DropZone() {
  const scanInputs = useNewBatch((state) => state.scanInputs);
  const [over, setOver] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  const [browsing, setBrowsing] = useState<FolderListing | null>(null);
  // "Open Folder…" is the OS dialog where the front end has one, else core's folder browser.
  const open = async () => {
    setHint(null);
    try {
      const home = await browsableHome();
      if (home) {
        setBrowsing(home);
        return;
      }
      const inputs = await api.call('dialog:open');
      if (inputs.length > 0) await scanInputs(inputs);
    } catch (error) {
      setHint(messageOf(error));
    }
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const paths = api.pathsForFiles([...event.dataTransfer.files]);
    if (paths.length > 0) void scanInputs(paths);
    else setHint(NO_PATH_DROPPED);
  };
  return (
    <section
      className={over ? 'drop-zone over' : 'drop-zone'}
      aria-label="Add photos"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <p>Drop product folders, photos or a catalog (CSV, JSON) here</p>
      {inBrowser && <PathEntry onAdd={(path) => void scanInputs([path])} />}
      <button type="button" onClick={() => void open()}>
        Open Folder…
      </button>
      {hint && <Notice kind="info">{hint}</Notice>}
      {browsing && (
        <FolderBrowser
          start={browsing}
          chooseLabel="Add this folder"
          onClose={() => setBrowsing(null)}
          onChoose={(folder) => {
            setBrowsing(null);
            void scanInputs([folder]);
          }}
        />
      )}
    </section>
  );
}

/** A folder, photo or catalog added by its path: in a browser, the way to add what a drop cannot. */
function PathEntry({ onAdd }: { onAdd: (path: string) => void }) {
  const [path, setPath] = useState('');
  return (
    <form
      className="path-entry"
      onSubmit={(event) => {
        event.preventDefault();
        if (path.trim()) onAdd(path.trim());
      }}
    >
      <label className="path-entry-field">
        Folder or file path
        <input
          type="text"
          value={path}
          placeholder="/home/you/Products"
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => setPath(event.target.value)}
        />
      </label>
      <button type="submit" disabled={!path.trim()}>
        Add
      </button>
    </form>
  );
}

/** Photos a link brought from outside the dropped folder, and where they really are (issue 28, point 4). */
function FromOutside({ photos }: { photos: ScannedProductView['photos'] }) {
  const real = photos.flatMap((photo) => (photo.realPath ? [photo.realPath] : []));
  if (real.length === 0) return null;
  return (
    <span className="from-outside" data-testid="from-outside" title={real.join('\n')}>
      {' · '}
      {counted(real.length, 'photo')} through a link, really in {[...new Set(real.map(folderOf))].join(', ')}
    </span>
  );
}

/** The folder a path is in. */
function folderOf(path: string): string {
  return path.replace(/[\\/][^\\/]*$/, '') || path;
}

/** The product's photos, hero first: choosing another makes it the hero, the one the service sees first. */
function HeroChoice({ product }: { product: ScannedProductView }) {
  const setHero = useNewBatch((state) => state.setHero);
  return (
    <fieldset className="hero-choice" aria-label={`${product.name}: choose the hero`}>
      {product.photos.map((photo, index) => (
        <button
          key={photo.file}
          type="button"
          aria-pressed={index === 0}
          aria-label={`${fileName(photo.file)}${index === 0 ? ' (hero)' : ': make it the hero'}`}
          title={fileName(photo.file)}
          onClick={() => {
            if (index > 0) void setHero(product.name, index);
          }}
        >
          {photo.thumbnailUrl ? (
            <img src={photo.thumbnailUrl} alt="" width={28} height={28} />
          ) : (
            <span className="thumb-placeholder" />
          )}
        </button>
      ))}
    </fieldset>
  );
}

/** Whether the product goes into the batch: left out, it is not quoted and not shot. */
function InBatch({ product }: { product: ScannedProductView }) {
  const leaveOut = useNewBatch((state) => state.leaveOut);
  return (
    <label className="checkbox in-batch">
      <input
        type="checkbox"
        checked={!product.leftOut}
        onChange={(event) => void leaveOut(product.name, !event.target.checked)}
      />
      <span className="visually-hidden">{product.name}: </span>In the batch
    </label>
  );
}

/** Folders of photos inside another: the choice of what they are, and what the scan made of each. */
function Subfolders({ nested }: { nested: ScanView['nested'] }) {
  const { subfolders, setSubfolders } = useNewBatch();
  return (
    <fieldset className="subfolders" data-testid="subfolders">
      <legend>Folders inside a product’s folder</legend>
      <label>
        <input
          type="radio"
          name="subfolders"
          checked={subfolders === 'own'}
          onChange={() => void setSubfolders('own')}
        />
        Each is a product of its own
      </label>
      <label>
        <input
          type="radio"
          name="subfolders"
          checked={subfolders === 'parent'}
          onChange={() => void setSubfolders('parent')}
        />
        Each is part of the product above it
      </label>
      <ul className="muted small">
        {nested.map((one) => (
          <li key={one.folder}>
            {one.folder}: {one.merged ? `part of ${one.parent}` : 'a product of its own'}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** What Adbatch wrote (its library, results, exports, data; a copy of a result) found in what was dropped: never products. */
function WhatAdbatchWrote({ skipped }: { skipped: ScanView['skippedFiles'] }) {
  const written = skipped.filter((one) => one.adbatchFolder);
  if (written.length === 0) return null;
  return (
    <div className="adbatch-folders" data-testid="adbatch-folders">
      <h3>Skipped: what Adbatch wrote</h3>
      <ul className="muted small">
        {written.map((one) => (
          <li key={one.file} title={one.file}>
            {fileName(one.file)}: {one.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Plan() {
  const { scan, scanning, cancelScan, cancelling } = useNewBatch();
  if (scanning) {
    return (
      <div className="scanning" aria-live="polite">
        <p>
          Checking photos… {scanning.checked} of {scanning.total || '?'}
        </p>
        <ProgressBar value={scanning.checked} max={scanning.total} label="Checking photos" />
        <button type="button" disabled={cancelling} onClick={() => void cancelScan()}>
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
    );
  }
  if (!scan) return null;
  const photos = scan.products.reduce((sum, product) => sum + product.photos.length, 0);
  const leftOut = scan.products.filter((product) => product.leftOut).length;
  const errors = scan.problems.filter((problem) => problem.severity === 'error');
  const warnings = scan.problems.filter((problem) => problem.severity === 'warning');
  return (
    <section className="plan" aria-labelledby="plan-title">
      <h2 id="plan-title">
        {counted(scan.products.length, 'product')}, {counted(photos, 'photo')}
        {leftOut > 0 && <span className="muted small"> · {leftOut} left out</span>}
      </h2>
      {scan.products.length === 0 ? (
        <EmptyState title="No usable photos">
          <p>Nothing here can be shot: see the problems below.</p>
        </EmptyState>
      ) : (
        <VirtualList
          items={scan.products}
          rowHeight={72}
          label="Products found"
          testId="plan-products"
          className="plan-products"
          render={(product) => (
            <div className={product.leftOut ? 'plan-product left-out' : 'plan-product'}>
              {product.photos[0]?.thumbnailUrl ? (
                <img
                  className="plan-hero"
                  src={product.photos[0].thumbnailUrl}
                  alt={`${product.name}, hero`}
                  width={56}
                  height={56}
                />
              ) : (
                <span className="thumb-placeholder" aria-hidden="true" />
              )}
              <div className="plan-product-text">
                <strong>{product.name}</strong>
                <small>
                  {counted(product.photos.length, 'photo')} · hero {fileName(product.photos[0]?.file ?? '')}
                  {product.photos.some((photo) => photo.converted) ? ' · some converted' : ''}
                  <FromOutside photos={product.photos} />
                </small>
              </div>
              {product.photos.length > 1 && <HeroChoice product={product} />}
              <InBatch product={product} />
            </div>
          )}
        />
      )}
      {scan.nested.length > 0 && <Subfolders nested={scan.nested} />}
      <WhatAdbatchWrote skipped={scan.skippedFiles} />
      {scan.dropped.length > 0 && (
        <div className="dropped" data-testid="dropped">
          <h3>
            {counted(scan.dropped.length, 'product')} dropped: none of{' '}
            {scan.dropped.length === 1 ? 'its' : 'their'} photos can be used
          </h3>
          <ul>
            {scan.dropped.map((product) => (
              <li key={product.folder}>
                <strong>{product.folder}</strong>: {product.reasons.join('; ')}
              </li>
            ))}
          </ul>
        </div>
      )}
      {scan.problems.length > 0 && (
        <details className="problems" open={errors.length > 0}>
          <summary>
            {errors.length} turned away, {warnings.length} warnings
          </summary>
          <ul>
            {scan.problems.map((problem) => (
              <li
                key={`${problem.file}-${problem.place ?? ''}-${problem.code}`}
                className={`problem problem-${problem.severity}`}
              >
                <span className="severity">{problem.severity}</span>{' '}
                <span className="file" title={problem.file}>
                  {fileName(problem.file)}
                </span>
                {problem.place && <span className="place"> ({problem.place})</span>}: {problem.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function SettingsForm({ catalog, shoot }: { catalog: CatalogView; shoot: ShootSettingsView }) {
  const {
    accountId,
    video,
    videoStep,
    includeDone,
    setAccount,
    setShoot,
    setVideo,
    setVideoStep,
    setIncludeDone,
  } = useNewBatch();
  const accounts = useAccounts((state) => state.accounts);
  const set = <K extends keyof ShootSettingsView>(key: K, value: ShootSettingsView[K]) =>
    setShoot({ [key]: value });
  const style = catalog.styles.find((choice) => choice.id === shoot.style);
  const account = accounts.find((one) => one.id === accountId);
  return (
    <section className="settings-form" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <label>
        Account
        <select value={accountId} onChange={(event) => setAccount(event.target.value)}>
          {accounts.map((account) => (
            <option key={account.id} value={account.id} disabled={account.refusedAt !== null}>
              {account.name}
              {account.kind === 'sandbox' ? ' (simulated)' : ''}
              {account.balance !== null ? ` · ${credits(account.balance)}` : ''}
            </option>
          ))}
        </select>
      </label>
      {account?.type === 'agency' && <BrandChoice account={account} />}
      <BatchCap />
      <StylePicker styles={catalog.styles} value={shoot.style} onChange={(id) => set('style', id)} />
      <fieldset className="inline">
        <legend>Mode</legend>
        {catalog.modes.map((mode) => (
          <label key={mode.id}>
            <input
              type="radio"
              name="mode"
              value={mode.id}
              checked={shoot.mode === mode.id}
              onChange={() => set('mode', mode.id)}
            />
            {mode.label}
          </label>
        ))}
      </fieldset>
      {shoot.mode === 'with_model' && (
        <ModelPicker accountId={accountId} value={shoot.modelUrl} onChange={(url) => set('modelUrl', url)} />
      )}
      <div className="row">
        <ShotChoices catalog={catalog} shoot={shoot} onChange={setShoot} />
      </div>
      {style && !style.sixShots && (
        <p className="muted small" data-testid="six-shot-rule">
          {sixShotRule(catalog)}: {style.label} makes at most {catalog.clampedShots}.
        </p>
      )}
      <BackgroundChoice value={shoot.backgroundColor} onChange={setShoot} />
      <fieldset className="video-step">
        <legend>Video ad of each product</legend>
        {VIDEO_STEPS.map((step) => (
          <label key={step.id}>
            <input
              type="radio"
              name="video-step"
              value={step.id}
              checked={videoStep === step.id}
              onChange={() => setVideoStep(step.id)}
            />
            {step.label}
          </label>
        ))}
      </fieldset>
      {video && videoStep !== 'none' && (
        <div className="row">
          <VideoChoices
            catalog={catalog}
            video={video}
            madeFrom={videoStep === 'after_review' ? 'pick' : 'shot'}
            onChange={setVideo}
          />
        </div>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={includeDone}
          onChange={(event) => setIncludeDone(event.target.checked)}
        />
        Also shoot products already shot with these photos and settings
      </label>
    </section>
  );
}

function PhotoReachNote({ reach, onSettings }: { reach: PhotoReach; onSettings: () => void }) {
  switch (reach.kind) {
    case 'urls':
      return <p className="muted">The service fetches the photos from their URLs.</p>;
    case 'this-computer':
      return <p className="muted">The service reads the photos from this computer.</p>;
    case 'storage':
      return (
        <p className="muted" data-testid="photo-reach">
          The photos are uploaded to bucket {reach.bucket} (each once) before the first shoot is sent.
        </p>
      );
    case 'missing':
      return (
        <Notice kind="warning">
          This service cannot read photos on this computer. Set up{' '}
          <button type="button" className="link" onClick={onSettings}>
            photo storage in Settings
          </button>{' '}
          first, or use the Sandbox.
        </Notice>
      );
  }
}

function Quote({ catalog, shoot }: { catalog: CatalogView; shoot: ShootSettingsView }) {
  const { quote, quoting, scan, video, error } = useNewBatch();
  const go = useNavigation((state) => state.go);
  if (!scan || scan.products.length === 0) return null;
  const modelMissing = shoot.mode === 'with_model' && !shoot.modelUrl;
  const withVideo = quote?.products.some((row) => row.videoCredits > 0) ?? false;
  return (
    <section className="quote" aria-labelledby="quote-title" aria-busy={quoting}>
      <h2 id="quote-title">Cost</h2>
      {!quote && quoting && <p className="muted">Pricing…</p>}
      {!quote && !quoting && modelMissing && <p className="muted">Choose a model to see the cost.</p>}
      {!quote && !quoting && !modelMissing && error && (
        <p className="muted">No cost to show: the last pricing failed (above).</p>
      )}
      {quote && quote.products.length === 0 && (
        <p className="muted" data-testid="all-set-aside">
          Nothing to shoot: every product was already shot with these photos and settings. Tick “Also shoot
          products already shot” to shoot them again.
        </p>
      )}
      {quote && quote.products.length > 0 && (
        <>
          <div
            className={withVideo ? 'quote-row quote-head with-video' : 'quote-row quote-head'}
            aria-hidden="true"
          >
            <span>Product</span>
            <span>Shots</span>
            <span className="number">Shoot</span>
            {withVideo && <span className="number">Video</span>}
            <span className="number">Total</span>
          </div>
          <VirtualList
            items={quote.products}
            rowHeight={32}
            label="Cost per product"
            testId="quote-rows"
            className="quote-rows"
            render={(row) => (
              <div className={withVideo ? 'quote-row with-video' : 'quote-row'}>
                <span className="quote-product">{row.product}</span>
                <span>
                  {counted(row.shots, 'shot')}
                  {row.clamped ? '*' : ''}
                </span>
                <span className="number">
                  <span className="visually-hidden">shoot </span>
                  {row.shootCredits}
                </span>
                {withVideo && (
                  <span className="number">
                    <span className="visually-hidden">video </span>
                    {row.videoCredits}
                  </span>
                )}
                <span className="number">{credits(row.credits)}</span>
              </div>
            )}
          />
          <PriceLine label="Each shoot" price={quote.prices.shoot} testId="shoot-price" />
          {quote.prices.video && (
            <PriceLine label="Each video" price={quote.prices.video} testId="video-price" />
          )}
          {quote.videoLaterCredits !== null && video && (
            <p className="muted" data-testid="videos-later">
              The shoots are charged now; the videos later, from your picks: about{' '}
              {credits(quote.videoLaterCredits)} per product at {video.duration} s / {video.resolution} (the
              exact price when you make them).
            </p>
          )}
          {quote.products.some((row) => row.clamped) && (
            <p className="muted">
              * This style makes {catalog.clampedShots} shots, not {shoot.shots}.
            </p>
          )}
          <PhotoReachNote reach={quote.photos} onSettings={() => go({ name: 'settings' })} />
          <CapsPreview quote={quote} />
          {quote.recipeAdvice.length > 0 && (
            <Notice kind="warning">
              <span data-testid="recipe-advice">
                Too small for the recipes you export with: {quote.recipeAdvice.join(' ')}
              </span>
            </Notice>
          )}
        </>
      )}
      {quote && quote.setAside.length > 0 && quote.products.length > 0 && (
        <Notice kind="info">
          {counted(quote.setAside.length, 'product')} {quote.setAside.length === 1 ? 'was' : 'were'} already
          shot with these photos and settings and will be skipped.
        </Notice>
      )}
    </section>
  );
}

/**
 * The batch's name, its total and Start, stuck to the bottom of the window while the settings above it
 * change; when Start cannot be pressed, the reason is beside it.
 */
function StartBar({ shoot }: { shoot: ShootSettingsView }) {
  const { quote, quoting, name, setName, start, starting, error, accountId, brandId } = useNewBatch();
  const account = useAccounts((state) => state.accounts.find((one) => one.id === accountId));
  const go = useNavigation((state) => state.go);
  const blocker = startBlocker({
    quote,
    quoting,
    starting,
    error,
    modelMissing: shoot.mode === 'with_model' && !shoot.modelUrl,
    brandMissing: account?.type === 'agency' && account.brandId === null && brandId === undefined,
  });
  const begin = async () => {
    const id = await start();
    if (id) go({ name: 'batch', id });
  };
  return (
    <section className="start-bar" aria-label="Start the batch">
      <label className="start-bar-name">
        Batch name
        <input value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <p className="total">
        {quote ? (
          <>
            Total <strong data-testid="quote-total">{credits(quote.credits)}</strong>
            {quote.balance !== null && (
              <span className="muted">
                {' '}
                of a balance of {credits(quote.balance)}
                {quote.promised > 0 && `, ${credits(quote.promised)} of it promised to jobs not yet charged`}
              </span>
            )}
          </>
        ) : (
          <span className="muted">Total: not priced yet</span>
        )}
      </p>
      <div className="start-bar-action">
        <button
          type="button"
          className="primary"
          disabled={blocker !== null || starting}
          aria-describedby={blocker ? 'start-blocker' : undefined}
          onClick={() => void begin()}
        >
          {starting
            ? 'Starting…'
            : quote && quote.products.length > 0
              ? `Start for ${credits(quote.credits)}`
              : 'Start'}
        </button>
        <p id="start-blocker" className="start-blocker muted small" role="status">
          {blocker ?? ''}
        </p>
      </div>
    </section>
  );
}

export function NewBatchScreen() {
  const { error, scan, shoot } = useNewBatch();
  const { catalog, error: catalogError, load: loadCatalog } = useCatalog();
  const loadAccounts = useAccounts((state) => state.load);
  useEffect(() => {
    void loadAccounts();
    void loadCatalog();
    // Coming back from Settings: the storage or the accounts may have changed what the quote says.
    if (useNewBatch.getState().scan) void useNewBatch.getState().requestQuote();
  }, [loadAccounts, loadCatalog]);
  return (
    <section className="screen new-batch" aria-labelledby="new-title">
      <header className="screen-header">
        <h1 id="new-title">New batch</h1>
      </header>
      {error && <Notice kind="error">{error}</Notice>}
      {catalogError && (
        <Notice kind="error">
          The choices of styles and qualities could not be loaded: {catalogError}{' '}
          <button type="button" className="link" onClick={() => void loadCatalog()}>
            Try again
          </button>
        </Notice>
      )}
      <div className="columns">
        <div className="column">
          <DropZone />
          <Plan />
        </div>
        {catalog && shoot && scan && scan.products.length > 0 && (
          <div className="column">
            <SettingsForm catalog={catalog} shoot={shoot} />
            <Quote catalog={catalog} shoot={shoot} />
          </div>
        )}
      </div>
      {catalog && shoot && scan && scan.products.length > 0 && <StartBar shoot={shoot} />}
    </section>
  );
}
