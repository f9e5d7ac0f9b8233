// Focusable markers for the annotations on a chart: a small flag above each annotation's line
// whose title shows on hover and keyboard focus.
import type { MarkerPosition } from './annotations';

export function AnnotationMarkers({ markers }: { markers: MarkerPosition[] }) {
  if (markers.length === 0) return null;
  return (
    <ul className="chart-annotations" aria-label="Annotations">
      {markers.map((marker) => (
        <li key={marker.id} className="chart-annotation" style={{ left: marker.left, top: marker.top, width: Math.max(marker.width, 0) }}>
          <button type="button" className="chart-annotation-flag" aria-label={`Annotation: ${marker.title}`} aria-describedby={`annotation-tip-${marker.id}`} />
          <span role="tooltip" id={`annotation-tip-${marker.id}`} className="chart-annotation-tip">
            <strong>{marker.title}</strong>
            {marker.description ? <span>{marker.description}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
