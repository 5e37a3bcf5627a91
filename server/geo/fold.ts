/** Names folded for matching: common/fold.ts (the layer menu's search folds the same way). */
export { foldName } from '../../common/fold.ts';
