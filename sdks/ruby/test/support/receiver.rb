# frozen_string_literal: true

require "openssl"
require "socket"

# A real HTTPS webhook receiver on 127.0.0.1 (TCPServer + OpenSSL::SSL::SSLServer) with the certificate
# the runtime's test CA signed, so the runtime delivers to it. Its answer can change (`behave`).
class WebhookReceiver
  Received = Struct.new(:path, :headers, :body, :at, keyword_init: true)

  attr_reader :port

  def initialize(tls, &behaviour)
    context = OpenSSL::SSL::SSLContext.new
    context.cert = OpenSSL::X509::Certificate.new(File.read(tls.fetch("cert")))
    context.key = OpenSSL::PKey.read(File.read(tls.fetch("key")))
    @tcp = TCPServer.new("127.0.0.1", 0)
    @port = @tcp.addr[1]
    @server = OpenSSL::SSL::SSLServer.new(@tcp, context)
    @server.start_immediately = false
    @behaviour = behaviour || ->(_received) { [200, "ok"] }
    @received = []
    @lock = Mutex.new
    @threads = []
    @acceptor = Thread.new { accept_loop }
  end

  def url(path = "/hook")
    "https://localhost:#{@port}#{path}"
  end

  # What to answer from now on: a block returning [status, body].
  def behave(&behaviour)
    @behaviour = behaviour
  end

  def received
    @lock.synchronize { @received.dup }
  end

  def close
    @tcp.close
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
    socket.accept # the TLS handshake, in this connection's thread
    line = socket.gets("\r\n")
    return if line.nil?

    _method, path = line.split(" ")
    headers = {}
    while (header = socket.gets("\r\n")) && header != "\r\n"
      name, value = header.split(":", 2)
      headers[name.strip.downcase] = value.strip
    end
    body = socket.read(headers["content-length"].to_i).to_s
    received = Received.new(path: path, headers: headers, body: body, at: TestSupport.monotonic)
    @lock.synchronize { @received << received }
    status, text = @behaviour.call(received)
    text = text.to_s
    socket.write("HTTP/1.1 #{status} X\r\ncontent-type: text/plain\r\ncontent-length: #{text.bytesize}\r\nconnection: close\r\n\r\n#{text}")
  rescue OpenSSL::SSL::SSLError, IOError, SystemCallError
    nil
  ensure
    socket.close unless socket.closed?
  end
end
