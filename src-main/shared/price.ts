// A price as the service's rules build it (../shared/api/ad-service-api.md), in whole credits: so many units
// at so many credits each, then each named adjustment, to the total the service charges. Core's pricing makes
// it (core/pricing.ts), once; shared/money-words.ts says it, so every front end shows the same lines and none
// works a price out again.

/** Why a price moves from its base: `product_only`, the service's 15 % off a video without a model. */
export type PriceAdjustmentReason = 'product_only';

export interface PriceAdjustment {
  reason: PriceAdjustmentReason;
  /** The reduction as the service states it, in percent (15). */
  percentOff: number;
  /**
   * Its effect in whole credits, negative for a reduction. The service rounds its total up
   * (cost = ceil(...)), so a reduction that falls between two credits is rounded down: base + credits is the
   * charged total, exactly.
   */
  credits: number;
  /** The reduction fell between two credits and was rounded down (as the service's rounding up implies). */
  rounded: boolean;
}

export interface PriceBreakdown {
  /** What is counted: a video's seconds, or a shoot's shots (each an image the service charges for). */
  unit: 'second' | 'shot';
  units: number;
  perUnit: number;
  /** units x perUnit. */
  base: number;
  adjustments: PriceAdjustment[];
  /** base plus every adjustment: what the service charges. */
  credits: number;
}
