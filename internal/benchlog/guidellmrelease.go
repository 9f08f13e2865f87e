package benchlog

// guideReportRelease names the guidellm release of a report whose
// top-level metadata (report schema version 2, guidellm 0.5 on) says it,
// read before its benchmarks: ", report v2, guidellm 0.8.0".
func guideReportRelease(o *jsonObj) string {
	var version, release string
	for _, kv := range o.kvs {
		switch kv.path {
		case "metadata.version":
			version = kv.raw
		case "metadata.guidellm_version":
			release = kv.raw
		}
	}
	out := ""
	if version != "" {
		out += ", report v" + version
	}
	if release != "" {
		out += ", guidellm " + release
	}
	return out
}
