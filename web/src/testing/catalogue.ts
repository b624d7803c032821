// The i18n catalogues as tests read them: every text of a namespace (or part of one), to look
// for on a screen that should show none of them (the Hindi tests) or to compare languages.

/** A catalogue, or a part of one: texts under keys, nested. */
export type CatalogueTree = { [key: string]: string | CatalogueTree };

/** Every text of `tree`, depth first. */
export function catalogueTexts(tree: CatalogueTree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : catalogueTexts(value)));
}
