import { Resvg } from '@resvg/resvg-js';
import { Injectable } from '@nestjs/common';
import { ChartRenderer } from '../application/digest.ports.js';

/** resvg (Rust, prebuilt per platform, no browser): the chart's SVG to PNG, with the system's fonts for its labels. */
@Injectable()
export class ResvgChartRenderer extends ChartRenderer {
  png(svg: string): Buffer {
    return new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
  }
}
