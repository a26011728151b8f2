use std::io::{BufReader, BufWriter, Cursor, Write};

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Write into any io::Write; buffer files and sockets, as Surp makes
    // small writes.
    let mut file = BufWriter::new(Vec::new());
    surp::to_writer(&mut file, &Point { x: 3, y: -4 })?;
    file.flush()?;
    let written = file.into_inner()?;

    // Read from any io::Read; the result owns its data.
    let point: Point =
        surp::from_reader(BufReader::new(Cursor::new(&written)))?;
    assert_eq!(point, Point { x: 3, y: -4 });

    // Several values in one stream: a Deserializer reads them one by one.
    let mut stream = Vec::new();
    for i in 0..3 {
        surp::to_writer(&mut stream, &Point { x: i, y: i * i })?;
    }
    let mut de = surp::Deserializer::from_reader(Cursor::new(stream));
    let points: Vec<Point> = (0..3)
        .map(|_| Point::deserialize(&mut de))
        .collect::<Result<_, _>>()?;
    assert_eq!(points[2], Point { x: 2, y: 4 });
    de.end()?; // nothing left over
    Ok(())
}
