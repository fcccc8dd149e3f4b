// mongo-native: the native tier of the MongoDB APIs (users, documents). The same operations
// their driver-tier clients make, through the official Go driver: compiled, one goroutine per
// client, so that at the loads of these benchmarks the database (FerretDB), not the client,
// is the limit. No bcrypt: a native tier measures the database alone.
//
//	mongo-native <config.json> <out.json>
//
// The config names the collection, the load shape (arrivals, sequential or closed), the flow
// (the API's operation names, in order) and the bodies to insert; the output is the baseline
// kit's (bench/src/baseline/recorder.ts BaselineOutput): the measured window, requests,
// errors by kind, latency in µs overall and per operation.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

type Config struct {
	URL        string `json:"url"`
	Pool       uint64 `json:"pool"`
	Collection string `json:"collection"`
	// arrivals: Users flows started evenly over Seconds, each once, DrainSeconds to finish;
	// sequential: Requests creates, then as many reads, replaces, deletes (the documents protocol);
	// closed: Concurrency clients looping the flow for DurationSeconds.
	Mode            string            `json:"mode"`
	WarmupSeconds   float64           `json:"warmupSeconds"`
	Users           int               `json:"users"`
	Seconds         float64           `json:"seconds"`
	DrainSeconds    float64           `json:"drainSeconds"`
	Requests        int               `json:"requests"`
	Concurrency     int               `json:"concurrency"`
	DurationSeconds float64           `json:"durationSeconds"`
	Flow            []string          `json:"flow"`
	Bodies          []json.RawMessage `json:"bodies"`
	Prefix          string            `json:"prefix"`
}

type Latency struct {
	Min, Mean, Median, P90, P95, P99, Max float64
}

func (l Latency) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]float64{"min": l.Min, "mean": l.Mean, "median": l.Median, "p90": l.P90, "p95": l.P95, "p99": l.P99, "max": l.Max})
}

type TypeOut struct {
	Requests  int     `json:"requests"`
	Errors    int     `json:"errors"`
	LatencyUs Latency `json:"latencyUs"`
}

type Output struct {
	MeasureFrom  int64              `json:"measureFrom"`
	MeasureUntil int64              `json:"measureUntil"`
	Requests     int                `json:"requests"`
	Errors       map[string]int     `json:"errors"`
	LatencyUs    Latency            `json:"latencyUs"`
	RequestTypes map[string]TypeOut `json:"requestTypes"`
}

// recorder keeps every measured operation's latency (µs) by type; counted by its start, as k6 counts.
type recorder struct {
	mu        sync.Mutex
	measuring bool
	lat       map[string][]float64
	errs      map[string]int
	errKinds  map[string]int
	order     []string
}

func (r *recorder) timed(name string, op func() error) error {
	r.mu.Lock()
	counted := r.measuring
	r.mu.Unlock()
	t0 := time.Now()
	err := op()
	if !counted {
		return err
	}
	us := math.Max(1, float64(time.Since(t0).Nanoseconds())/1000)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.lat[name]; !ok {
		r.order = append(r.order, name)
	}
	r.lat[name] = append(r.lat[name], us)
	if err != nil {
		r.errs[name]++
		kind := "0"
		if errors.Is(err, errCheck) {
			kind = "check"
		}
		r.errKinds[kind]++
	}
	return err
}

func (r *recorder) setMeasuring(v bool) {
	r.mu.Lock()
	r.measuring = v
	r.mu.Unlock()
}

var errCheck = errors.New("check")

func summary(values []float64) Latency {
	if len(values) == 0 {
		return Latency{}
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	at := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		if i < 0 {
			i = 0
		}
		return s[i]
	}
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	round := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	return Latency{round(s[0]), round(sum / float64(len(s))), round(at(0.5)), round(at(0.9)), round(at(0.95)), round(at(0.99)), round(s[len(s)-1])}
}

type client struct {
	cfg    Config
	coll   *mongo.Collection
	rec    *recorder
	bodies []bson.M
	hash   string
}

func (c *client) body(i int) bson.M {
	b := bson.M{}
	for k, v := range c.bodies[i%len(c.bodies)] {
		b[k] = v
	}
	return b
}

func notFound(err error) error {
	if errors.Is(err, mongo.ErrNoDocuments) {
		return errCheck
	}
	return err
}

// op runs one operation of the flow on the document or user id (set by the create/register step).
func (c *client) op(ctx context.Context, name string, id *primitive.ObjectID, username string, i int) error {
	return c.rec.timed(name, func() error {
		switch name {
		case "registerUser":
			r, err := c.coll.InsertOne(ctx, bson.M{"name": "Bench", "surname": "User", "username": username, "password": c.hash, "role": "user"})
			if err == nil {
				*id = r.InsertedID.(primitive.ObjectID)
			}
			return err
		case "login":
			return notFound(c.coll.FindOne(ctx, bson.M{"username": username}).Err())
		case "getUser", "getMe", "getDocument":
			return notFound(c.coll.FindOne(ctx, bson.M{"_id": *id}).Err())
		case "listUsers", "adminListUsers":
			cur, err := c.coll.Find(ctx, bson.M{}, options.Find().SetSort(bson.M{"_id": 1}).SetLimit(100))
			if err != nil {
				return err
			}
			var all []bson.M
			if err := cur.All(ctx, &all); err != nil {
				return err
			}
			if len(all) != 100 {
				return errCheck
			}
			return nil
		case "updateUser":
			return notFound(c.coll.FindOneAndUpdate(ctx, bson.M{"_id": *id}, bson.M{"$set": bson.M{"name": "Renamed", "surname": "Bench"}}, options.FindOneAndUpdate().SetReturnDocument(options.After)).Err())
		case "createDocument":
			r, err := c.coll.InsertOne(ctx, c.body(i))
			if err == nil {
				*id = r.InsertedID.(primitive.ObjectID)
			}
			return err
		case "replaceDocument":
			return notFound(c.coll.FindOneAndReplace(ctx, bson.M{"_id": *id}, c.body(i+1), options.FindOneAndReplace().SetReturnDocument(options.After)).Err())
		case "deleteUser", "deleteDocument":
			r, err := c.coll.DeleteOne(ctx, bson.M{"_id": *id})
			if err == nil && r.DeletedCount != 1 {
				return errCheck
			}
			return err
		}
		return fmt.Errorf("unknown operation %q", name)
	})
}

// flow runs the whole flow once; a failed step ends it, as the driver-tier clients do.
func (c *client) flow(ctx context.Context, username string, i int) {
	var id primitive.ObjectID
	for _, name := range c.cfg.Flow {
		if c.op(ctx, name, &id, username, i) != nil {
			return
		}
	}
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func run(cfg Config) (Output, error) {
	ctx := context.Background()
	mc, err := mongo.Connect(ctx, options.Client().ApplyURI(cfg.URL).SetMaxPoolSize(cfg.Pool))
	if err != nil {
		return Output{}, err
	}
	defer mc.Disconnect(ctx)
	// The database named in the URL, as the Node driver's client.db() takes it.
	cs, err := parseDatabase(cfg.URL)
	if err != nil {
		return Output{}, err
	}
	c := &client{cfg: cfg, coll: mc.Database(cs).Collection(cfg.Collection), rec: &recorder{lat: map[string][]float64{}, errs: map[string]int{}, errKinds: map[string]int{}}, hash: "$2b$10$" + fmt.Sprintf("%053d", 0)}
	for _, raw := range cfg.Bodies {
		var b bson.M
		if err := bson.UnmarshalExtJSON(raw, false, &b); err != nil {
			return Output{}, fmt.Errorf("a body: %w", err)
		}
		c.bodies = append(c.bodies, b)
	}
	warmEnd := time.Now().Add(time.Duration(cfg.WarmupSeconds * float64(time.Second)))
	from := warmEnd
	var until time.Time
	switch cfg.Mode {
	case "arrivals":
		for i := 0; time.Now().Before(warmEnd); i++ {
			c.flow(ctx, fmt.Sprintf("n%sw%d", cfg.Prefix, i), i)
		}
		from = time.Now()
		c.rec.setMeasuring(true)
		var wg sync.WaitGroup
		interval := time.Duration(cfg.Seconds * float64(time.Second) / float64(cfg.Users))
		for k := 0; k < cfg.Users; k++ {
			time.Sleep(time.Until(from.Add(time.Duration(k) * interval)))
			wg.Add(1)
			go func(k int) { defer wg.Done(); c.flow(ctx, fmt.Sprintf("n%sm%d", cfg.Prefix, k), k) }(k)
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Duration(cfg.DrainSeconds * float64(time.Second))):
		}
		c.rec.setMeasuring(false)
		until = time.Now()
	case "sequential":
		for i := 0; time.Now().Before(warmEnd); i++ {
			c.flow(ctx, "", i)
		}
		from = time.Now()
		c.rec.setMeasuring(true)
		ids := make([]primitive.ObjectID, cfg.Requests)
		ok := make([]bool, cfg.Requests)
		for i := range ids {
			ok[i] = c.op(ctx, "createDocument", &ids[i], "", i) == nil
		}
		for _, name := range []string{"getDocument", "replaceDocument", "deleteDocument"} {
			for i := range ids {
				if ok[i] {
					c.op(ctx, name, &ids[i], "", i)
				}
			}
		}
		c.rec.setMeasuring(false)
		until = time.Now()
	case "closed":
		end := warmEnd.Add(time.Duration(cfg.DurationSeconds * float64(time.Second)))
		var n int64
		var mu sync.Mutex
		next := func() int { mu.Lock(); defer mu.Unlock(); n++; return int(n) }
		timers := []*time.Timer{time.AfterFunc(time.Until(warmEnd), func() { c.rec.setMeasuring(true) }), time.AfterFunc(time.Until(end), func() { c.rec.setMeasuring(false) })}
		var wg sync.WaitGroup
		for w := 0; w < cfg.Concurrency; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(end) {
					c.flow(ctx, "", next())
				}
			}()
		}
		wg.Wait()
		for _, t := range timers {
			t.Stop()
		}
		until = end
	default:
		return Output{}, fmt.Errorf("mode must be arrivals, sequential or closed, got %q", cfg.Mode)
	}
	out := Output{MeasureFrom: ms(from), MeasureUntil: ms(until), Errors: c.rec.errKinds, RequestTypes: map[string]TypeOut{}}
	var all []float64
	for _, name := range c.rec.order {
		l := c.rec.lat[name]
		all = append(all, l...)
		out.RequestTypes[name] = TypeOut{Requests: len(l), Errors: c.rec.errs[name], LatencyUs: summary(l)}
		out.Requests += len(l)
	}
	out.LatencyUs = summary(all)
	return out, nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: mongo-native <config.json> <out.json>")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	if err == nil {
		var cfg Config
		if err = json.Unmarshal(raw, &cfg); err == nil {
			var out Output
			if out, err = run(cfg); err == nil {
				var b []byte
				if b, err = json.Marshal(out); err == nil {
					err = os.WriteFile(os.Args[2], b, 0o644)
				}
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mongo-native:", err)
		os.Exit(1)
	}
}
