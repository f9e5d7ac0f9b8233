// Choosing members of the organization (for a role's or a group's members) with checkboxes.
import type { Member } from '../../api/settings';

export function MemberPicker({ legend, members, chosen, onChange }: { legend: string; members: Member[]; chosen: string[]; onChange(next: string[]): void }) {
  return (
    <fieldset className="picker">
      <legend>{legend}</legend>
      {members.length === 0 ? <p className="muted">No members.</p> : null}
      {members.map((member) => (
        <label key={member.id} className="picker-option">
          <input
            type="checkbox"
            checked={chosen.includes(member.id)}
            onChange={(event) => onChange(event.target.checked ? [...chosen, member.id] : chosen.filter((id) => id !== member.id))}
          />
          {member.name} ({member.email})
        </label>
      ))}
    </fieldset>
  );
}
