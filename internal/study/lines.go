package study

// valueLines maps each field of a mapping onto the line its value starts
// on, so that a rule can point at the exact field it questions (a
// workload's num_prompts) rather than at the item.
func (m *mapping) valueLines() map[string]int {
	out := make(map[string]int, len(m.fields))
	for k, v := range m.fields {
		out[k] = v.Line
	}
	return out
}

// Line is the line of one of the workload's fields in study.yaml, or the
// workload's own line when the field is not written.
func (w *Workload) Line(field string) int {
	if n := w.Lines[field]; n > 0 {
		return n
	}
	return w.Pos.Line
}
