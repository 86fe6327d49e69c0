// The part of pdfmake's document model the report uses (pdfmake 0.3's documentation: "Document
// definition object"), stated here rather than taken from @types/pdfmake: those typings reference
// Node's types and the DOM library, which would put both sides' globals into both the server's and
// the browser's type checks (tsconfig.server.json, tsconfig.app.json). What is not listed here the
// report does not use; adding a property here is the first step of using it.

/** Left, top, right, bottom (points); or all four the same. */
export type Margins = number | [number, number] | [number, number, number, number];
export type Alignment = 'left' | 'right' | 'center' | 'justify';
/** A fixed width in points, '*' (a share of what is left) or 'auto' (as wide as the content). */
export type Size = number | '*' | 'auto' | `${number}%`;

/** Text styling, on a node, on a style in `styles`, or as the document's default. */
export interface Style {
  font?: string;
  fontSize?: number;
  lineHeight?: number;
  bold?: boolean;
  italics?: boolean;
  color?: string;
  alignment?: Alignment;
  margin?: Margins;
  noWrap?: boolean;
}

/** What every node may carry: its styles, its width in `columns`, page-breaking hints. */
interface NodeProps extends Style {
  /** A name from `styles`, or several (applied in order). */
  style?: string | string[];
  width?: Size;
  /** Laid out on one page, never split. */
  unbreakable?: boolean;
  /** Marks a heading, for `pageBreakBefore`. */
  headlineLevel?: number;
  /** Drawn offset from where the node would be, taking no room of its own. */
  relativePosition?: { x: number; y: number };
  /** Used as a table cell: how many columns it spans. */
  colSpan?: number;
  fillColor?: string;
}

/** A run of text: a string, or text with its own style inside a text node. */
export type Inline = string | ({ text: string | Inline[] } & NodeProps);

export interface ContentText extends NodeProps {
  text: string | number | Inline[];
}
export interface ContentStack extends NodeProps {
  stack: Content[];
}
export interface ContentColumns extends NodeProps {
  columns: Content[];
  columnGap?: number;
}

/** Lines of a table (index of the line, from the top or from the left). */
export interface TableLayout {
  hLineWidth?: (i: number) => number;
  vLineWidth?: (i: number) => number;
  hLineColor?: (i: number) => string;
  vLineColor?: (i: number) => string;
  fillColor?: (row: number) => string | null;
  paddingLeft?: (i: number) => number;
  paddingRight?: (i: number) => number;
  paddingTop?: (i: number) => number;
  paddingBottom?: (i: number) => number;
}
export type TableCell = Content | Record<string, never>;
export interface ContentTable extends NodeProps {
  table: {
    body: TableCell[][];
    widths?: Size[];
    /** Rows repeated at the top of every page the table continues on. */
    headerRows?: number;
    keepWithHeaderRows?: number;
    dontBreakRows?: boolean;
  };
  layout?: 'noBorders' | 'headerLineOnly' | 'lightHorizontalLines' | TableLayout;
}

interface LineStyle {
  color?: string;
  fillOpacity?: number;
  lineColor?: string;
  lineWidth?: number;
  lineCap?: 'butt' | 'round' | 'square';
  dash?: { length: number; space?: number };
}
/** One vector shape of a canvas, in points from the canvas's top left. */
export type CanvasElement =
  | ({ type: 'rect'; x: number; y: number; w: number; h: number } & LineStyle)
  | ({ type: 'line'; x1: number; y1: number; x2: number; y2: number } & LineStyle)
  | ({ type: 'polyline'; points: { x: number; y: number }[]; closePath?: boolean } & LineStyle)
  | ({ type: 'ellipse'; x: number; y: number; r1: number; r2: number } & LineStyle);
export interface ContentCanvas extends NodeProps {
  canvas: CanvasElement[];
}

export type Content = string | ContentText | ContentStack | ContentColumns | ContentTable | ContentCanvas | Content[];

/** A node as pageBreakBefore sees it after layout. */
export interface LaidOutNode {
  headlineLevel?: number;
}
export interface FollowingNodes {
  getFollowingNodesOnPage(): LaidOutNode[];
}

/** The header and footer: a function of the page, for "page 2 of 5". */
export type DynamicContent = (page: number, pages: number, size: { width: number; height: number; orientation: 'portrait' | 'landscape' }) => Content;

export interface TDocumentDefinitions {
  content: Content;
  pageSize?: 'A4';
  pageMargins?: Margins;
  info?: { title?: string; author?: string; subject?: string; creator?: string; producer?: string };
  defaultStyle?: Style;
  styles?: Record<string, Style>;
  header?: DynamicContent | Content;
  footer?: DynamicContent | Content;
  /** True where a page break should come before `node` (a heading left alone at a page's end). */
  pageBreakBefore?: (node: LaidOutNode, following: FollowingNodes) => boolean;
}
