package report

import (
	"slices"
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
	sorted := slices.Clone(uses)
	slices.SortStableFunc(sorted, func(a, b EngineUse) int { return strings.Compare(a.Study, b.Study) })
	groups := newEngineGroups(sorted)
	parsed := versionCache{}
	versions := groupVersions(sorted, groups, parsed)
	out := map[string]map[string]Freshness{}
	for _, u := range sorted {
		if !u.Current {
			continue
		}
		if out[u.Study] == nil {
			out[u.Study] = map[string]Freshness{}
		}
		v := parsed.parse(u.Version)
		if v == nil {
			out[u.Study][u.ID] = Freshness{}
			continue
		}
		list := versions[groups.of(u)]
		newer := sort.Search(len(list), func(i int) bool { return list[i].v.Compare(*v) > 0 })
		f := Freshness{Known: true, Behind: len(list) - newer}
		if f.Behind > 0 {
			f.Newest, f.Study = list[len(list)-1].v.Raw, list[len(list)-1].study
		}
		out[u.Study][u.ID] = f
	}
	return out
}

// engineGroups is a union of the ids and names that name one engine.
type engineGroups struct {
	parent map[string]string
	byUse  map[[2]string]string // id and name -> group: most uses repeat a few
}

func newEngineGroups(sorted []EngineUse) *engineGroups {
	g := &engineGroups{parent: map[string]string{}, byUse: map[[2]string]string{}}
	pairs := map[[2]string]bool{}
	for _, u := range sorted {
		if p := [2]string{u.ID, u.Name}; !pairs[p] {
			pairs[p] = true
			g.union(useKeys(u))
		}
	}
	return g
}

func useKeys(u EngineUse) (string, string) {
	return "id:" + strings.ToLower(u.ID), "name:" + strings.ToLower(u.Name)
}

func (g *engineGroups) find(k string) string {
	if p, ok := g.parent[k]; ok && p != k {
		root := g.find(p)
		g.parent[k] = root
		return root
	}
	g.parent[k] = k
	return k
}

func (g *engineGroups) union(a, b string) {
	ra, rb := g.find(a), g.find(b)
	if ra != rb {
		if ra > rb { // the smaller key is the root: the same groups whatever the order
			ra, rb = rb, ra
		}
		g.parent[rb] = ra
	}
}

// of is the group of a use's engine.
func (g *engineGroups) of(u EngineUse) string {
	p := [2]string{u.ID, u.Name}
	grp, ok := g.byUse[p]
	if !ok {
		id, _ := useKeys(u)
		grp = g.find(id)
		g.byUse[p] = grp
	}
	return grp
}

// versionCache parses each version once; nil: cannot be ordered.
type versionCache map[string]*study.Version

func (c versionCache) parse(raw string) *study.Version {
	v, ok := c[raw]
	if !ok {
		if pv, err := study.ParseVersion(raw); err == nil {
			v = &pv
		}
		c[raw] = v
	}
	return v
}

// knownVersion is a version and the first study (by id) that uses it.
type knownVersion struct {
	v     study.Version
	study string
}

// groupVersions is each group's versions, distinct and oldest first.
func groupVersions(sorted []EngineUse, groups *engineGroups, parsed versionCache) map[string][]knownVersion {
	versions := map[string][]knownVersion{}
	seen := map[[2]string]bool{} // group, version as written
	for _, u := range sorted {
		g := groups.of(u)
		if k := [2]string{g, u.Version}; !seen[k] {
			seen[k] = true
			if v := parsed.parse(u.Version); v != nil {
				versions[g] = append(versions[g], knownVersion{*v, u.Study})
			}
		}
	}
	for g, list := range versions {
		// By version, then study, then spelling: the first study among equals.
		slices.SortFunc(list, func(a, b knownVersion) int {
			if c := a.v.Compare(b.v); c != 0 {
				return c
			}
			if c := strings.Compare(a.study, b.study); c != 0 {
				return c
			}
			return strings.Compare(a.v.Raw, b.v.Raw)
		})
		distinct := list[:0]
		for _, k := range list {
			if len(distinct) == 0 || distinct[len(distinct)-1].v.Compare(k.v) != 0 {
				distinct = append(distinct, k)
			}
		}
		versions[g] = distinct
	}
	return versions
}
