package report

import (
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// EngineUse is one version of an engine that a study uses: an engine of
// its study.yaml (Current) or a version of a run's history.
type EngineUse struct {
	Study, ID, Name, Version string
	Current                  bool
}

// EngineUses lists the engine versions a study uses, in a fixed order: its
// engines as study.yaml lists them, then each run's history versions.
func EngineUses(s *study.Study) []EngineUse {
	var out []EngineUse
	for _, e := range s.Engines {
		out = append(out, EngineUse{Study: s.ID, ID: e.ID, Name: e.Name, Version: e.Version, Current: true})
	}
	for _, r := range s.Runs {
		e := s.Engine(r.Engine)
		if e == nil {
			continue
		}
		for _, h := range r.History {
			out = append(out, EngineUse{Study: s.ID, ID: e.ID, Name: e.Name, Version: h.Version.Raw})
		}
	}
	return out
}

// Freshness is how an engine version of a study compares with the newest
// version of the same engine used anywhere in the site.
type Freshness struct {
	// Known: the version is one perflab can order (study.ParseVersion);
	// otherwise nothing else is set, and no age is claimed.
	Known bool
	// Behind is how many distinct versions newer than this one the site
	// uses; 0: the newest in the site.
	Behind int
	Newest string // the newest version, as the first study using it writes it
	Study  string // the first study, by id, that uses the newest version
}

// Freshnesses compares every study's engine versions (its Current uses)
// with the newest version of the same engine in uses, which are every
// study's. Two engines are the same when their ids or their names are
// equal, letter case aside. The result maps study -> engine id; the same
// uses give the same result, in whatever order.
func Freshnesses(uses []EngineUse) map[string]map[string]Freshness {
	sorted := append([]EngineUse(nil), uses...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Study < sorted[j].Study })
	// Group engines: union of the ids and names that name them.
	parent := map[string]string{}
	var find func(string) string
	find = func(k string) string {
		if p, ok := parent[k]; ok && p != k {
			root := find(p)
			parent[k] = root
			return root
		}
		parent[k] = k
		return k
	}
	union := func(a, b string) {
		ra, rb := find(a), find(b)
		if ra != rb {
			if ra > rb { // the smaller key is the root: the same groups whatever the order
				ra, rb = rb, ra
			}
			parent[rb] = ra
		}
	}
	keys := func(u EngineUse) (string, string) {
		return "id:" + strings.ToLower(u.ID), "name:" + strings.ToLower(u.Name)
	}
	for _, u := range sorted {
		union(keys(u))
	}
	type known struct {
		v     study.Version
		study string
	}
	versions := map[string][]known{} // group -> every ordered version, by study id
	for _, u := range sorted {
		if v, err := study.ParseVersion(u.Version); err == nil {
			id, _ := keys(u)
			g := find(id)
			versions[g] = append(versions[g], known{v, u.Study})
		}
	}
	out := map[string]map[string]Freshness{}
	for _, u := range sorted {
		if !u.Current {
			continue
		}
		if out[u.Study] == nil {
			out[u.Study] = map[string]Freshness{}
		}
		v, err := study.ParseVersion(u.Version)
		if err != nil {
			out[u.Study][u.ID] = Freshness{}
			continue
		}
		id, _ := keys(u)
		f := Freshness{Known: true}
		var newer []study.Version // distinct, newest last
		for _, k := range versions[find(id)] {
			if k.v.Compare(v) <= 0 || containsVersion(newer, k.v) {
				continue
			}
			if len(newer) == 0 || k.v.Compare(newer[len(newer)-1]) > 0 {
				f.Newest, f.Study = k.v.Raw, k.study
				newer = append(newer, k.v)
			} else {
				newer = append([]study.Version{k.v}, newer...)
			}
		}
		f.Behind = len(newer)
		out[u.Study][u.ID] = f
	}
	return out
}

func containsVersion(list []study.Version, v study.Version) bool {
	for _, w := range list {
		if w.Compare(v) == 0 {
			return true
		}
	}
	return false
}
