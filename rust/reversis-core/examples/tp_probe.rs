use reversis_core::{preset, revealed, Card, Game, Phase, Sampler, SplitMix64};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = &args[1];
    let plays: usize = args[2].parse().unwrap();
    let rules = (*preset(name).unwrap()).clone();
    let mut g = Game::new(rules.clone(), Some(3), 1, None).unwrap();
    let mut rng = SplitMix64::new(1);
    for _ in 0..400 {
        if g.phase() == Phase::Play {
            break;
        }
        let ids = g.legal_actions(None).unwrap();
        g.apply_action(ids[rng.below_fast(ids.len() as u64) as usize], None)
            .unwrap();
    }
    for _ in 0..plays {
        let ids = g.legal_actions(None).unwrap();
        g.apply_action(ids[rng.below_fast(ids.len() as u64) as usize], None)
            .unwrap();
    }
    let seat = g.to_move().unwrap_or(0);
    let k = g.knowledge(seat).unwrap();
    let t = Instant::now();
    let s = Sampler::new(&rules, &k).unwrap();
    println!("plain: {:?} count {}", t.elapsed(), s.count());
    let mut plays: Vec<(usize, Card)> = g.tricks().iter().flat_map(|t| t.plays()).collect();
    plays.extend(g.trick());
    let leader = plays.first().map_or(seat, |p| p.0);
    let t = Instant::now();
    let ex = revealed(&rules, leader, &plays).unwrap();
    let s = Sampler::with_exclusions(&rules, &k, &ex).unwrap();
    println!("exclusions: {:?} count {}", t.elapsed(), s.count());
    let t = Instant::now();
    for _ in 0..1000 {
        std::hint::black_box(s.sample(&mut rng));
    }
    println!("1000 samples: {:?}", t.elapsed());
}
