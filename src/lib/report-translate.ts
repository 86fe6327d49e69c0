// The report's labels (report/labels.ts) are plain descriptors that the core renders with a
// `translate` function. Here it is Lingui's i18n._ with the active catalog, and English from the
// descriptor itself for an id the catalog does not hold yet (a new label before the catalogs are
// merged): i18n._ would print such a message uncompiled, with its {placeholders} unfilled.
import type { I18n } from '@lingui/core';
import { englishTranslate, type Translate } from '../../report/labels.ts';

export function reportTranslate(i18n: Pick<I18n, '_' | 'messages'>): Translate {
  return (descriptor, values) =>
    Object.prototype.hasOwnProperty.call(i18n.messages, descriptor.id)
      ? i18n._({ ...descriptor, ...(values ? { values } : {}) })
      : englishTranslate(descriptor, values);
}
