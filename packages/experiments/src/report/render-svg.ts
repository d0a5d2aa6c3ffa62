import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { visibleControls } from './escape';

/**
 * Renders a Vega-Lite spec to a standalone SVG string in Node, without a browser or canvas
 * (Vega's headless SVG renderer). Data must be inline. Vega escapes markup in labels; control
 * characters in them (escape sequences from a config) are written as visible `\xNN`.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return visibleControls(await view.toSVG(), '\n\t\r');
  } finally {
    view.finalize();
  }
}
