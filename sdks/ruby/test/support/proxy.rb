# frozen_string_literal: true

require "socket"
require "net/http"

# An HTTP proxy in front of the runtime (plain TCPServer) that records requests and injects faults.
# `decide` picks what happens to each request, by arrival order:
#   [:forward]                          pass it to the runtime and its answer back
#   [:drop]                             pass it on, wait for the whole answer, then cut the connection
#   [:respond, status, headers, body]   answer without asking the runtime (body: a Hash as problem+json)
#   [:delay, seconds]                   wait, then forward
class FaultProxy
  Seen = Struct.new(:method, :path, :headers, :body, :at, :status, :response_headers, keyword_init: true)
  HOP_HEADERS = %w[host connection content-length keep-alive transfer-encoding accept-encoding].freeze

  attr_reader :seen

  def initialize(target, &decide)
    @target = URI(target)
    @decide = decide || ->(_request, _index) { [:forward] }
    @seen = []
    @lock = Mutex.new
    @server = TCPServer.new("127.0.0.1", 0)
    @threads = []
    @acceptor = Thread.new { accept_loop }
  end

  def url
    "http://127.0.0.1:#{@server.addr[1]}"
  end

  def decide(&block)
    @decide = block
  end

  def reset
    @lock.synchronize { @seen.clear }
  end

  def requests
    @lock.synchronize { @seen.dup }
  end

  # Requests with this method to paths starting with `prefix` (after /api/v1).
  def to(method, prefix)
    requests.select { |s| s.method == method && s.path.delete_prefix("/api/v1").start_with?(prefix) }
  end

  def close
    @server.close
    @acceptor.kill
    @threads.each(&:kill)
  end

  private

  def accept_loop
    loop do
      socket = @server.accept
      @threads << Thread.new(socket) { |s| handle(s) }
    end
  rescue IOError, Errno::EBADF
    nil # closed
  end

  def handle(socket)
    request = read_request(socket)
    return socket.close if request.nil?

    index = @lock.synchronize { @seen.push(request).size - 1 }
    action, *args = @decide.call(request, index)
    case action
    when :respond then respond(socket, request, *args)
    when :delay
      sleep args.first
      forward(socket, request, drop: false)
    else forward(socket, request, drop: action == :drop)
    end
  rescue IOError, SystemCallError
    nil # the client went away (a timeout test)
  ensure
    socket.close unless socket.closed?
  end

  def read_request(socket)
    line = socket.gets("\r\n")
    return nil if line.nil?

    method, path = line.split(" ")
    headers = {}
    while (header = socket.gets("\r\n")) && header != "\r\n"
      name, value = header.split(":", 2)
      headers[name.strip.downcase] = value.strip
    end
    length = headers["content-length"].to_i
    body = length.positive? ? socket.read(length) : ""
    Seen.new(method: method, path: path, headers: headers, body: body, at: TestSupport.monotonic)
  end

  def respond(socket, request, status, headers = {}, body = nil)
    text = body.nil? ? "" : JSON.generate(body)
    request.status = status
    write(socket, status, { "content-type" => "application/problem+json" }.merge(headers), text)
  end

  def forward(socket, request, drop:)
    upstream = Net::HTTPGenericRequest.new(request.method, !request.body.empty?, true, request.path,
                                           request.headers.reject { |name, _| HOP_HEADERS.include?(name) })
    upstream.body = request.body unless request.body.empty?
    response = Net::HTTP.start(@target.host, @target.port) { |http| http.request(upstream) }
    headers = {}
    response.each_header { |name, value| headers[name] = value unless HOP_HEADERS.include?(name) || name == "content-encoding" }
    request.status = response.code.to_i
    request.response_headers = headers
    return if drop # the runtime acted; the client never hears of it

    write(socket, response.code.to_i, headers, response.body.to_s)
  end

  def write(socket, status, headers, body)
    head = ["HTTP/1.1 #{status} Status"]
    headers.merge("content-length" => body.bytesize.to_s, "connection" => "close").each { |name, value| head << "#{name}: #{value}" }
    socket.write("#{head.join("\r\n")}\r\n\r\n#{body}")
  end
end
