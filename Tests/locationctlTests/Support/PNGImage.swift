import Foundation

/// A decoded PNG: 8-bit RGB or RGBA, not interlaced (what headless Chromium writes), as RGBA pixels.
struct PNGImage {
    struct Pixel: Equatable {
        var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
    }

    enum DecodingError: Error {
        case notPNG, unsupported(String), corrupt(String)
    }

    let width: Int
    let height: Int
    private let rgba: [UInt8]

    subscript(x: Int, y: Int) -> Pixel {
        let offset = (y * width + x) * 4
        return Pixel(red: rgba[offset], green: rgba[offset + 1], blue: rgba[offset + 2], alpha: rgba[offset + 3])
    }

    init(contentsOf url: URL) throws {
        try self.init(data: [UInt8](try Data(contentsOf: url)))
    }

    init(data: [UInt8]) throws {
        guard data.count > 8, data[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw DecodingError.notPNG
        }
        var offset = 8
        var header: (width: Int, height: Int, colourType: UInt8)?
        var compressed: [UInt8] = []
        func integer(_ at: Int) -> Int {
            Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
        }
        while offset + 12 <= data.count {
            let length = integer(offset)
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length + 4 <= data.count else { throw DecodingError.corrupt("chunk \(type)") }
            let body = data[start..<start + length]
            switch type {
            case "IHDR":
                guard length == 13 else { throw DecodingError.corrupt("IHDR") }
                let depth = body[start + 8], colour = body[start + 9], interlace = body[start + 12]
                guard depth == 8, colour == 2 || colour == 6, interlace == 0 else {
                    throw DecodingError.unsupported("depth \(depth), colour type \(colour), interlace \(interlace)")
                }
                header = (integer(start), integer(start + 4), colour)
            case "IDAT":
                compressed += body
            default:
                break
            }
            offset = start + length + 4
            if type == "IEND" { break }
        }
        guard let header, header.width > 0, header.height > 0 else { throw DecodingError.corrupt("no IHDR") }
        let channels = header.colourType == 6 ? 4 : 3
        let stride = header.width * channels
        // zlib: a two-byte header, deflate data, an Adler-32 checksum.
        guard compressed.count > 6 else { throw DecodingError.corrupt("no image data") }
        var inflater = Inflater(compressed, start: 2)
        let raw = try inflater.inflate(expected: (stride + 1) * header.height)
        guard raw.count >= (stride + 1) * header.height else { throw DecodingError.corrupt("short image data") }
        var pixels = [UInt8](repeating: 0, count: stride * header.height)
        for row in 0..<header.height {
            let filter = raw[row * (stride + 1)]
            let source = row * (stride + 1) + 1
            for column in 0..<stride {
                let x = Int(raw[source + column])
                let a = column >= channels ? Int(pixels[row * stride + column - channels]) : 0
                let b = row > 0 ? Int(pixels[(row - 1) * stride + column]) : 0
                let c = row > 0 && column >= channels ? Int(pixels[(row - 1) * stride + column - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw DecodingError.corrupt("filter \(filter)")
                }
                pixels[row * stride + column] = UInt8((x + predicted) & 0xFF)
            }
        }
        var rgba = [UInt8](repeating: 255, count: header.width * header.height * 4)
        for index in 0..<(header.width * header.height) {
            for channel in 0..<channels { rgba[index * 4 + channel] = pixels[index * channels + channel] }
        }
        width = header.width
        height = header.height
        self.rgba = rgba
    }
}

/// Deflate (RFC 1951) decoding: stored, fixed-Huffman and dynamic-Huffman blocks.
private struct Inflater {
    private let input: [UInt8]
    private var position: Int
    private var bitBuffer = 0
    private var bitCount = 0

    init(_ input: [UInt8], start: Int) {
        self.input = input
        position = start
    }

    private mutating func bits(_ count: Int) throws -> Int {
        while bitCount < count {
            guard position < input.count else { throw PNGImage.DecodingError.corrupt("deflate: out of input") }
            bitBuffer |= Int(input[position]) << bitCount
            position += 1
            bitCount += 8
        }
        let value = bitBuffer & ((1 << count) - 1)
        bitBuffer >>= count
        bitCount -= count
        return value
    }

    /// A canonical Huffman code: counts of codes per length, and symbols in code order.
    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<16 { offsets[length] = offsets[length - 1] + counts[length - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length > 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    private mutating func decode(_ huffman: Huffman) throws -> Int {
        var code = 0, first = 0, index = 0
        for length in 1..<16 {
            code |= try bits(1)
            let count = huffman.counts[length]
            if code - first < count { return huffman.symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw PNGImage.DecodingError.corrupt("deflate: bad code")
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                     67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
                                        11, 11, 12, 12, 13, 13]

    mutating func inflate(expected: Int) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(expected)
        var last = 0
        while last == 0 {
            last = try bits(1)
            switch try bits(2) {
            case 0:
                bitBuffer = 0
                bitCount = 0
                guard position + 4 <= input.count else { throw PNGImage.DecodingError.corrupt("deflate: stored header") }
                let length = Int(input[position]) | Int(input[position + 1]) << 8
                position += 4
                guard position + length <= input.count else { throw PNGImage.DecodingError.corrupt("deflate: stored block") }
                output += input[position..<position + length]
                position += length
            case 1:
                let literals = Huffman(lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                                       + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8))
                let distances = Huffman(lengths: [Int](repeating: 5, count: 30))
                try block(literals, distances, into: &output)
            case 2:
                let literalCount = try bits(5) + 257, distanceCount = try bits(5) + 1, codeCount = try bits(4) + 4
                let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
                var codeLengths = [Int](repeating: 0, count: 19)
                for index in 0..<codeCount { codeLengths[order[index]] = try bits(3) }
                let lengthCode = Huffman(lengths: codeLengths)
                var lengths: [Int] = []
                while lengths.count < literalCount + distanceCount {
                    let symbol = try decode(lengthCode)
                    switch symbol {
                    case 0..<16: lengths.append(symbol)
                    case 16:
                        guard let previous = lengths.last else { throw PNGImage.DecodingError.corrupt("deflate: repeat") }
                        lengths += [Int](repeating: previous, count: 3 + (try bits(2)))
                    case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
                    default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
                    }
                }
                try block(Huffman(lengths: Array(lengths[0..<literalCount])),
                          Huffman(lengths: Array(lengths[literalCount..<literalCount + distanceCount])), into: &output)
            default:
                throw PNGImage.DecodingError.corrupt("deflate: block type 3")
            }
        }
        return output
    }

    private mutating func block(_ literals: Huffman, _ distances: Huffman, into output: inout [UInt8]) throws {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < Self.lengthBase.count else { throw PNGImage.DecodingError.corrupt("deflate: length") }
                let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
                let code = try decode(distances)
                guard code < Self.distanceBase.count else { throw PNGImage.DecodingError.corrupt("deflate: distance") }
                let distance = Self.distanceBase[code] + (try bits(Self.distanceExtra[code]))
                guard distance <= output.count else { throw PNGImage.DecodingError.corrupt("deflate: too far back") }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }
}
