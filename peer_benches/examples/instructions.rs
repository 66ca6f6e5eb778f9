//! The workloads of `sparse_peer_benches::instructions` in a small binary of their own
//! (the peer benchmark binary runs the same table: `bash peer_benches/instructions.sh`).
//!
//! ```sh
//! cargo build --release -p sparse_peer_benches --example instructions
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/instructions w3 2   # then with 12, and subtract
//! ```

use sparse_peer_benches::instructions;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(workload), Some(reps)) = (
        args.get(1),
        args.get(2).and_then(|r| r.parse::<usize>().ok()),
    ) else {
        eprintln!(
            "usage: instructions <{}> <repetitions>",
            instructions::WORKLOADS
        );
        std::process::exit(2);
    };
    if let Err(e) = instructions::run(workload, reps) {
        eprintln!("{e}");
        std::process::exit(2);
    }
}
